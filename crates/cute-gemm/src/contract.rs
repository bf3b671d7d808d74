//! Einsum-style GETT: `contract("stupr,qtru->stqp", A, B, C)`.

use crate::gemm::{gemm_beta, Element};
use crate::CONTRACT;
use cute::{geometry, Error, ErrorKind, Layout, Operand, Storage, StorageMut, Tensor};

/// The classification of a contraction's letters and the folded GEMM layouts (views of the same
/// storage as the tensors).
#[derive(Clone, Debug)]
pub struct ContractModes {
    /// Letters in A and C only (rows, M), in C's order.
    pub rows: Vec<char>,
    /// Letters in B and C only (columns, N), in C's order.
    pub cols: Vec<char>,
    /// Letters in A and B only (reduction, K), in A's order.
    pub reduction: Vec<char>,
    /// Letters in A, B and C (batch, L), in C's order.
    pub batch: Vec<char>,
    /// A folded to `((M…),(K…)[,(L…)])`.
    pub a: Layout,
    /// B folded to `((N…),(K…)[,(L…)])`.
    pub b: Layout,
    /// C folded to `((M…),(N…)[,(L…)])`.
    pub c: Layout,
}

fn syntax(pos: usize, expected: &'static str) -> Error {
    Error::new(CONTRACT, ErrorKind::Syntax { pos, expected })
}

/// Splits `"ab,bc->ac"` into the three terms with the byte offset of each.
fn parse(spec: &str) -> Result<[(usize, &str); 3], Error> {
    let arrow = spec.find("->").ok_or_else(|| {
        syntax(
            spec.len(),
            "'->' followed by the output term (as in \"mk,kn->mn\")",
        )
    })?;
    let (lhs, out) = (&spec[..arrow], &spec[arrow + 2..]);
    let comma = lhs
        .find(',')
        .ok_or_else(|| syntax(arrow, "',' between the two input terms"))?;
    let terms = [
        (0, &lhs[..comma]),
        (comma + 1, &lhs[comma + 1..]),
        (arrow + 2, out),
    ];
    for (start, t) in terms {
        if let Some(i) = t.bytes().position(|ch| !ch.is_ascii_alphabetic()) {
            return Err(syntax(
                start + i,
                "an ASCII letter (one per mode; exactly two input terms and one output term)",
            ));
        }
    }
    Ok(terms)
}

/// The top-level modes of `t` listed by `letters`, concatenated (the trivial layout `1:0` when
/// `letters` is empty).
fn fold(t: &Layout, term: &str, letters: &[char]) -> Result<Layout, Error> {
    if letters.is_empty() {
        return Layout::leaf(1, 0);
    }
    let modes: Vec<Layout> = letters
        .iter()
        .map(|&ch| t.mode(term.find(ch).unwrap_or(0)))
        .collect::<Result<_, _>>()?;
    Layout::concat(&modes)
}

/// What a tensor of a term with no letters (a scalar) must be: one mode, of one element.
const SCALAR_MSG: [&str; 2] = [
    "a term with no letters names a scalar: its tensor is the one-element layout 1:d (rank vs 1)",
    "a term with no letters names a scalar: its tensor is the one-element layout 1:d (size vs 1)",
];

/// Classifies the letters of `spec` for tensors with layouts `a`, `b`, `c` and folds the layouts
/// into the GEMM's `(M,K[,L])`, `(N,K[,L])`, `(M,N[,L])` (the L mode only when there are batch
/// letters).
///
/// Errors (operation `contract`):
/// * `Syntax`: not `"<letters>,<letters>-><letters>"`, with the byte position;
/// * `ProfileMismatch`: a tensor whose rank differs from its term's number of letters, or the
///   tensor of an empty term (a scalar) that is not one element `1:d` (operand: the tensor's
///   layout), or one letter whose modes differ in size between two tensors
///   ([`ErrorKind::ContractSizes`], naming the letter, both terms and both sizes; operands: the two
///   tensors' layouts);
/// * `Unsupported`: a letter repeated within one term (a diagonal), or a letter in one term only
///   (a free sum, or a broadcast of the output): [`ErrorKind::ContractLetter`], naming the letter,
///   its term and its position there (operand: the tensor's layout).
///
/// ```
/// use cute::{ErrorKind, Layout};
/// use cute_gemm::contract_modes;
/// let l = |s: &str| s.parse::<Layout>().unwrap();
/// let e = contract_modes("mk,kn->mn", &l("(2,3):(1,2)"), &l("(4,5):(1,4)"), &l("(2,5):(1,2)"))
///     .unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "contract (2,3):(1,2), (4,5):(1,4): letter 'k' names a mode of size 3 in A and a mode of \
///      size 4 in B"
/// );
/// let e = contract_modes("mm,mn->mn", &l("(2,2):(1,2)"), &l("(2,5):(1,2)"), &l("(2,5):(1,2)"))
///     .unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::ContractLetter { letter: b'm', term: 0, position: 1, .. }));
/// assert_eq!(e.category(), "Unsupported");
/// // a dot product: the output term is empty, its tensor one element
/// let m = contract_modes("k,k->", &l("4:1"), &l("4:2"), &l("1:0")).unwrap();
/// assert_eq!((m.reduction, m.c.to_string()), (vec!['k'], "(1,1):(0,0)".to_string()));
/// assert!(contract_modes("k,k->", &l("4:1"), &l("4:2"), &l("2:1")).is_err());
/// ```
pub fn contract_modes(
    spec: &str,
    a: &Layout,
    b: &Layout,
    c: &Layout,
) -> Result<ContractModes, Error> {
    let terms = parse(spec)?;
    let tensors = [a, b, c];
    let rank_msg = [
        "tensor A needs one top-level mode per letter of the first term (rank vs letters)",
        "tensor B needs one top-level mode per letter of the second term (rank vs letters)",
        "tensor C needs one top-level mode per letter of the output term (rank vs letters)",
    ];
    for (i, (_, t)) in terms.iter().enumerate() {
        // a term with no letters names a scalar: a layout has at least one mode, so its tensor
        // is the one-element layout `1:d` (a 0-d array's)
        let mismatch = if t.is_empty() {
            if tensors[i].rank() != 1 {
                Some((SCALAR_MSG[0], tensors[i].rank() as i64, 1))
            } else if tensors[i].size() != 1 {
                Some((SCALAR_MSG[1], tensors[i].size(), 1))
            } else {
                None
            }
        } else if tensors[i].rank() != t.len() {
            Some((rank_msg[i], tensors[i].rank() as i64, t.len() as i64))
        } else {
            None
        };
        if let Some((what, left, right)) = mismatch {
            return Err(
                Error::new(CONTRACT, ErrorKind::ProfileMismatch { what, left, right })
                    .with(Operand::Layout(*tensors[i]), Operand::None),
            );
        }
        for (p, ch) in t.char_indices() {
            if t[..p].contains(ch) {
                return Err(Error::new(
                    CONTRACT,
                    ErrorKind::ContractLetter {
                        letter: ch as u8,
                        term: i as u8,
                        position: p,
                        what: "it repeats an earlier letter of the same term (a diagonal), which \
                               is not a GETT mode",
                    },
                )
                .with(Operand::Layout(*tensors[i]), Operand::None));
            }
        }
    }
    let [(_, ta), (_, tb), (_, tc)] = terms;
    let (mut rows, mut cols, mut reduction, mut batch) = (vec![], vec![], vec![], vec![]);
    for (i, (_, t)) in terms.iter().enumerate() {
        for (p, ch) in t.char_indices() {
            let inn = [ta.contains(ch), tb.contains(ch), tc.contains(ch)];
            if inn.iter().filter(|&&x| x).count() == 1 {
                return Err(Error::new(
                    CONTRACT,
                    ErrorKind::ContractLetter {
                        letter: ch as u8,
                        term: i as u8,
                        position: p,
                        what: "it occurs in no other term; a GETT letter is a row (A and C), \
                               column (B and C), reduction (A and B) or batch (all three) mode",
                    },
                )
                .with(Operand::Layout(*tensors[i]), Operand::None));
            }
        }
    }
    for ch in tc.chars() {
        match (ta.contains(ch), tb.contains(ch)) {
            (true, true) => batch.push(ch),
            (true, false) => rows.push(ch),
            _ => cols.push(ch),
        }
    }
    reduction.extend(ta.chars().filter(|&ch| tb.contains(ch) && !tc.contains(ch)));
    // every letter's modes have one size in the tensors that carry it
    for ch in ta.chars().chain(tb.chars()).chain(tc.chars()) {
        let sizes: Vec<(usize, i64)> = terms
            .iter()
            .enumerate()
            .filter_map(|(i, (_, t))| t.find(ch).map(|p| (i, p)))
            .map(|(i, p)| Ok((i, tensors[i].mode(p)?.size())))
            .collect::<Result<_, Error>>()?;
        if let Some(&(j, sj)) = sizes.iter().find(|&&(_, s)| s != sizes[0].1) {
            let i = sizes[0].0;
            return Err(Error::new(
                CONTRACT,
                ErrorKind::ContractSizes {
                    letter: ch as u8,
                    term: i as u8,
                    size: sizes[0].1,
                    other_term: j as u8,
                    other_size: sj,
                },
            )
            .with(Operand::Layout(*tensors[i]), Operand::Layout(*tensors[j])));
        }
    }
    let group = |t: &Layout, term: &str, x: &[char], y: &[char]| -> Result<Layout, Error> {
        let mut modes = vec![fold(t, term, x)?, fold(t, term, y)?];
        if !batch.is_empty() {
            modes.push(fold(t, term, &batch)?);
        }
        Layout::concat(&modes)
    };
    Ok(ContractModes {
        a: group(a, ta, &rows, &reduction)?,
        b: group(b, tb, &cols, &reduction)?,
        c: group(c, tc, &rows, &cols)?,
        rows,
        cols,
        reduction,
        batch,
    })
}

/// `contract(spec, A, B, C)`: the einsum-style GETT `C[out] += Σ A[first]·B[second]`, summing over
/// the letters of A and B that are not in the output, e.g. `"stupr,qtru->stqp"` (the paper's
/// `C_stqp = A_stupr B_qtru`). C is **accumulated into**, like [`gemm()`](crate::gemm()); zero it first for
/// einsum's overwrite semantics.
///
/// Each letter names one top-level mode of its tensor (a mode may itself be hierarchical). The
/// letters are classified by [`contract_modes`] into rows M (A and C), columns N (B and C),
/// reduction K (A and B) and batch L (all three); the tensors are re-viewed — same storage, no
/// copy — as `((M…),(K…),(L…))`, `((N…),(K…),(L…))` and `((M…),(N…),(L…))` and multiplied by
/// [`gemm()`](crate::gemm()). Errors are those of [`contract_modes`] and of [`gemm()`](crate::gemm()) (a C that is not injective),
/// reported with the operation `contract`.
pub fn contract<T, SA, SB, SC>(
    spec: &str,
    a: &Tensor<SA>,
    b: &Tensor<SB>,
    c: &mut Tensor<SC>,
) -> Result<(), Error>
where
    T: Element,
    SA: Storage<Item = T>,
    SB: Storage<Item = T>,
    SC: StorageMut<Item = T>,
{
    contract_beta(spec, a, b, T::ONE, c)
}

/// `contract_beta(spec, A, B, β, C)`: `C[out] = Σ A[first]·B[second] + β·C[out]`, BLAS's β. With
/// `β = 0` this is `numpy.einsum`'s overwrite (C's old values are not read, so NaNs in them do
/// not propagate); with `β = 1` it is [`contract`].
///
/// The arguments are checked (the spec, the extents, an injective C) before C is touched, so an
/// error leaves C as it was. For `f32` and `f64` β is applied by the kernel itself, in its first
/// call for each piece of C, so no separate pass over C is made (the integer types, which run
/// the reference loop, scale C first).
///
/// ```
/// use cute::{Layout, Tensor};
/// let a = [1.0f64, 2.0, 3.0, 4.0]; // 2×2 row-major
/// let b = [1.0f64, 1.0];
/// let mut c = [f64::NAN, 100.0];
/// let ta = Tensor::new(&a[..], "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
/// let tb = Tensor::new(&b[..], "2:1".parse::<Layout>().unwrap()).unwrap();
/// let mut tc = Tensor::new(&mut c[..], "2:1".parse::<Layout>().unwrap()).unwrap();
/// cute_gemm::contract_beta("mk,k->m", &ta, &tb, 0.0, &mut tc).unwrap();
/// assert_eq!(c, [3.0, 7.0]);
/// ```
pub fn contract_beta<T, SA, SB, SC>(
    spec: &str,
    a: &Tensor<SA>,
    b: &Tensor<SB>,
    beta: T,
    c: &mut Tensor<SC>,
) -> Result<(), Error>
where
    T: Element,
    SA: Storage<Item = T>,
    SB: Storage<Item = T>,
    SC: StorageMut<Item = T>,
{
    let modes = contract_modes(spec, a.layout(), b.layout(), c.layout())?;
    // C's folded view permutes its modes, so it is injective exactly when C is: C is checked as
    // the caller wrote it, so that the two indices named are indices of C (gemm's own check of
    // the view then passes)
    geometry::check_injective_exhaustive(c.layout(), CONTRACT)?;
    let retag = |e: Error| Error::new(CONTRACT, *e.kind()).with(*e.lhs(), *e.rhs());
    let ta = Tensor::with_base(a.storage().items(), a.base(), modes.a).map_err(retag)?;
    let tb = Tensor::with_base(b.storage().items(), b.base(), modes.b).map_err(retag)?;
    let base_c = c.base();
    let mut tc = Tensor::with_base(c.storage_mut().items_mut(), base_c, modes.c).map_err(retag)?;
    gemm_beta(&ta, &tb, beta, &mut tc).map_err(retag)
}
