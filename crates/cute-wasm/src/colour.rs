//! Colours by hue: the one HSL-to-RGB conversion of the playground's pictures (the bank colours
//! and the linking colours); and colours as the page reads them, `0xRRGGBB` numbers.

/// The RGB bytes of hue `h` (a fraction of the circle), saturation `s` and lightness `l` (both
/// in `0..=1`), by the usual HSL formula.
///
/// ```
/// use cute_wasm::colour::hsl;
/// assert_eq!(hsl(0.0, 1.0, 0.5), (255, 0, 0));
/// assert_eq!(hsl(1.0 / 3.0, 1.0, 0.5), (0, 255, 0));
/// assert_eq!(hsl(0.5, 0.0, 0.5), (128, 128, 128));
/// ```
pub fn hsl(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    let channel = |t: f64| {
        let t = t.rem_euclid(1.0);
        let v = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        (v * 255.0).round() as u8
    };
    (channel(h + 1.0 / 3.0), channel(h), channel(h - 1.0 / 3.0))
}

/// The colour `(r, g, b)` as the number `0xRRGGBB` (how the page's JSON carries fills).
///
/// ```
/// use cute_wasm::colour::rgb_number;
/// assert_eq!(rgb_number((0x12, 0x34, 0x56)), 0x12_34_56);
/// ```
pub fn rgb_number((r, g, b): (u8, u8, u8)) -> u32 {
    (r as u32) << 16 | (g as u32) << 8 | b as u32
}
