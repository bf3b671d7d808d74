//! The crate's error: a layout-algebra error, an unsupported plan, a failed compilation or launch,
//! or a result that disagrees with its reference.

use core::fmt;

/// Everything that can go wrong in planning, generating, compiling, launching and checking a
/// kernel. Each variant's message is one line naming the operation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GpuError {
    /// The layout algebra refused an operation of the plan.
    Layout(Box<cute::Error>),
    /// The request is outside what an operation supports: `op` names it, `what` says why.
    Unsupported {
        /// The operation (`copy plan`, `mma atom`, …).
        op: &'static str,
        /// The violated condition, with the operands.
        what: String,
    },
    /// The caller's request is invalid: operands of different sizes, a tensor that reaches past its
    /// buffer, overlapping source and destination, mismatched devices or types. `op` names the
    /// operation, `what` the operands and the violated condition.
    Invalid {
        /// The operation (`copy`, `gemm`, `device tensor`, …).
        op: &'static str,
        /// The violated condition, with the operands.
        what: String,
    },
    /// No CUDA driver or NVRTC library could be loaded: the crate's GPU paths need one.
    NoDriver(String),
    /// The CUDA driver or NVRTC failed (`op` names the call).
    Driver {
        /// The call that failed.
        op: &'static str,
        /// The driver's or the compiler's message.
        message: String,
    },
    /// A kernel's output disagrees with the reference.
    Mismatch {
        /// The check.
        check: String,
        /// The first disagreement.
        detail: String,
    },
}

impl GpuError {
    /// An [`GpuError::Unsupported`] for `op`.
    pub fn unsupported(op: &'static str, what: impl Into<String>) -> GpuError {
        GpuError::Unsupported {
            op,
            what: what.into(),
        }
    }

    /// A [`GpuError::Invalid`] for `op`.
    ///
    /// ```
    /// let e = cute_cuda::GpuError::invalid("copy", "sizes 8 and 9 differ");
    /// assert_eq!(e.to_string(), "copy: sizes 8 and 9 differ");
    /// ```
    pub fn invalid(op: &'static str, what: impl Into<String>) -> GpuError {
        GpuError::Invalid {
            op,
            what: what.into(),
        }
    }

    /// A [`GpuError::Driver`] for the call `op`.
    pub fn driver(op: &'static str, e: impl fmt::Display) -> GpuError {
        GpuError::Driver {
            op,
            message: e.to_string(),
        }
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Layout(e) => write!(f, "{e}"),
            GpuError::Unsupported { op, what } | GpuError::Invalid { op, what } => {
                write!(f, "{op}: {what}")
            }
            GpuError::NoDriver(m) => write!(f, "no CUDA device: {m}"),
            GpuError::Driver { op, message } => write!(f, "{op}: {message}"),
            GpuError::Mismatch { check, detail } => write!(f, "{check}: {detail}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<cute::Error> for GpuError {
    fn from(e: cute::Error) -> GpuError {
        GpuError::Layout(Box::new(e))
    }
}
