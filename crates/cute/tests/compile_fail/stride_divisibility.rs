// The paper's S-VIOL-1: (4,6,8):(2,3,5) ∘ 6:3 violates the stride-divisibility condition (9).
use cute::{composition, layout, unwrap, Layout};

const R: Layout = unwrap(composition(&layout!("(4,6,8):(2,3,5)"), &layout!("6:3")));

fn main() {
    println!("{R}");
}
