//! The element types of the atoms and of the data that copies move.

/// The element types: those of the atoms (`F32`, `F16`, `Bf16`, `Tf32`) and the integer and
/// 64-bit types that COPY moves (a COPY moves bits: only the width matters to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE binary32.
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
    /// TensorFloat-32 (stored in 32 bits).
    Tf32,
    /// IEEE binary64.
    F64,
    /// Signed 8-bit integer.
    I8,
    /// Unsigned 8-bit integer (also booleans and raw bytes).
    U8,
    /// Signed 16-bit integer.
    I16,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
    /// 8-bit float, 4 exponent and 3 mantissa bits (`float8_e4m3fn`): the operands of the fp8
    /// `wgmma` and `tcgen05.mma` atoms; a COPY moves it as bytes.
    E4m3,
    /// 8-bit float, 5 exponent and 2 mantissa bits (`float8_e5m2`).
    E5m2,
}

impl DType {
    /// Every element type, in the order of their names in [`DType::NAMES`].
    pub const ALL: [DType; 12] = [
        DType::F32,
        DType::F16,
        DType::Bf16,
        DType::Tf32,
        DType::F64,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::E4m3,
        DType::E5m2,
    ];

    /// Bits per element as stored.
    ///
    /// ```
    /// use cute::atom::DType;
    /// assert_eq!((DType::Tf32.bits(), DType::Bf16.bits()), (32, 16));
    /// ```
    pub const fn bits(self) -> i64 {
        match self {
            DType::F32 | DType::Tf32 | DType::I32 => 32,
            DType::F16 | DType::Bf16 | DType::I16 => 16,
            DType::F64 | DType::I64 => 64,
            DType::I8 | DType::U8 | DType::E4m3 | DType::E5m2 => 8,
        }
    }

    /// Bytes per element as stored.
    ///
    /// ```
    /// use cute::atom::DType;
    /// assert_eq!(DType::F64.bytes(), 8);
    /// ```
    pub const fn bytes(self) -> i64 {
        self.bits() / 8
    }

    /// The name PTX uses in instruction types (`f32`, `f16`, `bf16`, `tf32`, `f64`, `s8`, `u8`,
    /// `s16`, `s32`, `s64`).
    ///
    /// ```
    /// use cute::atom::DType;
    /// assert_eq!((DType::I8.ptx(), DType::Bf16.to_string().as_str()), ("s8", "bf16"));
    /// ```
    pub const fn ptx(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::Bf16 => "bf16",
            DType::Tf32 => "tf32",
            DType::F64 => "f64",
            DType::I8 => "s8",
            DType::U8 => "u8",
            DType::I16 => "s16",
            DType::I32 => "s32",
            DType::I64 => "s64",
            DType::E4m3 => "e4m3",
            DType::E5m2 => "e5m2",
        }
    }

    /// The unsigned integer type of the same width in CUDA C++ (kernels move bits).
    ///
    /// ```
    /// use cute::atom::DType;
    /// assert_eq!(DType::Bf16.cuda_bits_type(), "unsigned short");
    /// assert_eq!(DType::I64.cuda_bits_type(), "unsigned long long");
    /// ```
    pub const fn cuda_bits_type(self) -> &'static str {
        match self.bits() {
            8 => "unsigned char",
            16 => "unsigned short",
            32 => "unsigned int",
            _ => "unsigned long long",
        }
    }

    /// The type named by `name`: the PTX name (`bf16`, `s32`, …) or the usual short names
    /// (`f32`, `float32`, `bfloat16`, `half`, `i8`, `int64`, `uint8`, `bool`, `f64`, `double`).
    ///
    /// ```
    /// use cute::atom::DType;
    /// assert_eq!(DType::parse("bfloat16"), Some(DType::Bf16));
    /// assert_eq!(DType::parse("int32"), Some(DType::I32));
    /// assert_eq!(DType::parse("complex64"), None);
    /// ```
    pub fn parse(name: &str) -> Option<DType> {
        Some(match name {
            "f32" | "float32" | "float" => DType::F32,
            "f16" | "float16" | "half" => DType::F16,
            "bf16" | "bfloat16" => DType::Bf16,
            "tf32" => DType::Tf32,
            "f64" | "float64" | "double" => DType::F64,
            "s8" | "i8" | "int8" => DType::I8,
            "u8" | "uint8" | "bool" | "byte" => DType::U8,
            "s16" | "i16" | "int16" => DType::I16,
            "s32" | "i32" | "int32" | "int" => DType::I32,
            "s64" | "i64" | "int64" | "long" => DType::I64,
            "e4m3" | "float8_e4m3fn" => DType::E4m3,
            "e5m2" | "float8_e5m2" => DType::E5m2,
            _ => return None,
        })
    }

    /// The names [`DType::parse`] knows, for error messages.
    pub const NAMES: &'static str = "f32, f16, bf16, tf32, f64, i8, u8, i16, i32, i64, e4m3, e5m2";
}

impl core::fmt::Display for DType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.ptx())
    }
}
