// A layout literal whose shape and stride are not congruent is refused by the compiler.
const L: cute::Layout = cute::layout!("(4,8):(1,(4,2))");

fn main() {
    println!("{L}");
}
