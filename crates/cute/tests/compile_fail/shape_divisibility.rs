// The paper's S-VIOL-2: (4,6,8):(2,3,5) ∘ 6:1 violates the shape-divisibility condition (10).
use cute::{composition, layout, unwrap, Layout};

const R: Layout = unwrap(composition(&layout!("(4,6,8):(2,3,5)"), &layout!("6:1")));

fn main() {
    println!("{R}");
}
