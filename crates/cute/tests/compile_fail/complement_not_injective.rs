// A layout that maps two coordinates to one offset has no complement.
use cute::{complement, layout, unwrap, Layout};

const C: Layout = unwrap(complement(&layout!("(2,2):(1,1)")));

fn main() {
    println!("{C}");
}
