//! PNG output: decoded, and the colour at the centre of chosen cells checked against the colour
//! the picture gives that cell (not pixel snapshots). The font is the one compiled into the crate,
//! so this holds on a machine without fonts.

use ::png as pngcrate;
use cute::Layout;
use cute_draw::{pictures, png, Scene};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// Decodes a PNG into (width, height, RGBA pixels).
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut d = pngcrate::Decoder::new(std::io::Cursor::new(bytes.to_vec()))
        .read_info()
        .unwrap();
    let mut buf = vec![0; d.output_buffer_size().unwrap()];
    let info = d.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, pngcrate::ColorType::Rgba);
    assert_eq!(info.bit_depth, pngcrate::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// The colour at SVG position `(x + dx, y + dy)` of the rendered scene.
fn pixel(
    s: &Scene,
    img: &(u32, u32, Vec<u8>),
    (x, y): (f64, f64),
    (dx, dy): (f64, f64),
) -> (u8, u8, u8) {
    let k = png::scale(s);
    let (px, py) = (((x + dx) * k) as u32, ((y + dy) * k) as u32);
    assert!(px < img.0 && py < img.1);
    let i = ((py * img.0 + px) * 4) as usize;
    (img.2[i], img.2[i + 1], img.2[i + 2])
}

/// A point of the cell away from its label (labels sit in the middle, at most 13 units above and
/// below the centre): near its top-left corner.
fn fill_at(s: &Scene, img: &(u32, u32, Vec<u8>), panel: usize, r: i64, c: i64) -> (u8, u8, u8) {
    let w = s.panels[panel].cell_w as f64;
    pixel(s, img, s.cell_centre(panel, r, c), (-w * 0.3, -16.0))
}

#[test]
fn layout_cells_have_their_grey() {
    let s = pictures::layout(&l("(4,8):(1,4)")).unwrap();
    let bytes = png::render(&s).unwrap();
    let img = decode(&bytes);
    assert_eq!(
        (img.0, img.1),
        ((s.width() * 2) as u32, (s.height() * 2) as u32)
    );
    for (r, c) in [(0, 0), (1, 0), (3, 1), (2, 5), (3, 7)] {
        let v = r + 4 * c;
        assert_eq!(
            fill_at(&s, &img, 0, r, c),
            pictures::grey(v),
            "cell ({r},{c})"
        );
    }
}

#[test]
fn labels_are_drawn_with_the_shipped_font() {
    // the centre of a labelled cell holds dark glyph pixels; a white cell's corner stays white
    let s = pictures::layout(&l("(2,2):(1,2)")).unwrap();
    let img = decode(&png::render(&s).unwrap());
    let (x, y) = s.cell_centre(0, 0, 0);
    let k = png::scale(&s);
    let dark = (-8..8)
        .flat_map(|dx| (-8..8).map(move |dy| (dx, dy)))
        .filter(|&(dx, dy)| {
            let (px, py) = ((x * k) as i64 + dx, (y * k) as i64 + dy);
            let i = ((py as u32 * img.0 + px as u32) * 4) as usize;
            img.2[i] < 100
        })
        .count();
    assert!(
        dark > 5,
        "no glyph at the centre of cell (0,0): {dark} dark pixels"
    );
    assert_eq!(fill_at(&s, &img, 0, 0, 0), (255, 255, 255));
}

#[test]
fn tv_and_mma_cells_have_their_thread_colour() {
    let s = pictures::tv_layout(&l("((4,8),(2,2)):((32,1),(16,8))"), 16, 8, Some(5)).unwrap();
    let img = decode(&png::render(&s).unwrap());
    // C of m16n8k16: (m, n) belongs to thread 4·(m mod 8) + n/2
    for (m, n) in [(0, 0), (1, 0), (9, 3), (15, 7), (4, 6)] {
        let t = 4 * (m % 8) + n / 2;
        assert_eq!(fill_at(&s, &img, 0, m, n), pictures::thread_colour(t));
    }
    let s = pictures::mma(
        "m16n8k16",
        &l("((4,8),(2,2,2)):((32,1),(16,8,128))"),
        &l("((4,8),(2,2)):((16,1),(8,64))"),
        &l("((4,8),(2,2)):((32,1),(16,8))"),
        (16, 8, 16),
        None,
    )
    .unwrap();
    let img = decode(&png::render(&s).unwrap());
    // A (m, k): thread 4·(m mod 8) + (k mod 8)/2; B drawn as (k, n): thread 4·n + (k mod 8)/2
    for (m, k) in [(0, 0), (3, 9), (12, 15)] {
        let t = 4 * (m % 8) + (k % 8) / 2;
        assert_eq!(fill_at(&s, &img, 1, m, k), pictures::thread_colour(t));
    }
    for (k, n) in [(0, 0), (5, 7), (14, 2)] {
        let t = 4 * n + (k % 8) / 2;
        assert_eq!(fill_at(&s, &img, 0, k, n), pictures::thread_colour(t));
    }
}

#[test]
fn bank_colours_in_a_swizzled_tile() {
    let sw: cute::ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
    let s = pictures::banks(&sw, 2).unwrap();
    let img = decode(&png::render(&s).unwrap());
    for (r, c) in [(0, 0), (1, 0), (7, 8), (5, 63)] {
        let e = sw.eval(r + 8 * c).unwrap();
        let bank = (e * 2 / 4) % 32;
        assert_eq!(fill_at(&s, &img, 0, r, c), pictures::bank_colour(bank));
    }
}

#[test]
fn a_large_scene_is_scaled_down_to_fit() {
    let s = pictures::layout(&l("(128,128):(128,1)")).unwrap();
    let k = png::scale(&s);
    assert!(k < 1.0);
    let img = decode(&png::render(&s).unwrap());
    assert!((img.0 as f64) * (img.1 as f64) <= png::MAX_PIXELS + 2.0 * 4096.0 + 1.0);
    for (r, c) in [(0, 0), (1, 0), (127, 127), (64, 3)] {
        assert_eq!(fill_at(&s, &img, 0, r, c), pictures::grey(128 * r + c));
    }
}

/// Writes sample images for a person to look at when `CUTE_DRAW_SAMPLES` names a folder.
#[test]
fn samples_for_a_person() {
    let Some(dir) = std::env::var_os("CUTE_DRAW_SAMPLES") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let sw: cute::ComposedLayout = "Sw<0,0,0> o 0 o (8,64):(64,1)".parse().unwrap();
    let ldm = l("((8,4),(8,2)):((1,64),(8,256))");
    let scenes = [
        ("layout", pictures::layout(&l("(4,8):(1,4)")).unwrap()),
        (
            "mma",
            pictures::mma(
                "m16n8k16",
                &l("((4,8),(2,2,2)):((32,1),(16,8,128))"),
                &l("((4,8),(2,2)):((16,1),(8,64))"),
                &l("((4,8),(2,2)):((32,1),(16,8))"),
                (16, 8, 16),
                Some(5),
            )
            .unwrap(),
        ),
        (
            "conflicts",
            pictures::swizzle_conflicts(&sw, &ldm, 2, 8).unwrap().scene,
        ),
    ];
    for (name, s) in scenes {
        std::fs::write(dir.join(format!("{name}.png")), png::render(&s).unwrap()).unwrap();
        std::fs::write(dir.join(format!("{name}.svg")), s.svg()).unwrap();
    }
}
