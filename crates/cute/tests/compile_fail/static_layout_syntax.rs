// A static layout whose text is not a layout fails the build where it is defined.
cute::static_layout!(Tile = "((4,8),2):((16,1),8");

fn main() {}
