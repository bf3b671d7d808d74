//! PNG through resvg, with the font shipped in this crate (DejaVu Sans Mono, `fonts/`, under its
//! own permissive licence `fonts/LICENSE_DEJAVU`): the font database holds that font alone, loaded
//! from the bytes compiled into the binary and never from the system, so an image looks the same
//! on every machine, with or without fonts installed.

use crate::grid::DrawError;
use crate::scene::Scene;
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// DejaVu Sans Mono, compiled in.
pub const FONT: &[u8] = include_bytes!("../fonts/DejaVuSansMono.ttf");
/// The font's family name.
pub const FONT_FAMILY: &str = "DejaVu Sans Mono";

/// The most pixels a PNG may have (4096 × 4096); larger scenes are scaled down to fit.
pub const MAX_PIXELS: f64 = 16_777_216.0;
/// The scale of a scene small enough to fit [`MAX_PIXELS`] at it: 2 pixels per SVG unit.
pub const SCALE: f64 = 2.0;

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_monospace_family(FONT_FAMILY);
        db.set_sans_serif_family(FONT_FAMILY);
        db.set_serif_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Pixels per SVG unit of the PNG of `scene`: [`SCALE`], or less so that the image has at most
/// [`MAX_PIXELS`] pixels.
pub fn scale(scene: &Scene) -> f64 {
    let area = (scene.width().max(1) as f64) * (scene.height().max(1) as f64);
    SCALE.min((MAX_PIXELS / area).sqrt())
}

/// The longest side a PNG may have, in pixels: a scene too long and thin to fit at [`scale`]
/// (a layout of many cells in one row or column) is refused rather than drawn as a sliver.
pub const MAX_SIDE: u64 = crate::grid::MAX_PNG_SIDE;

/// The size in pixels of the PNG of `scene`, or [`DrawError::ImageTooLarge`] when a side would
/// exceed [`MAX_SIDE`]. Checked before any drawing, so a refused picture costs nothing.
///
/// ```
/// use cute_draw::scene::{Cell, Panel, Scene};
/// let s = Scene::single(Panel::new("t", 1, 1, |_, _| Cell::blank()));
/// assert_eq!(cute_draw::png::pixel_size(&s).unwrap(), (180, 220));
/// let long = Scene::single(Panel::new("t", 1, 200_000, |_, _| Cell::blank()));
/// assert!(cute_draw::png::pixel_size(&long).is_err());
/// ```
pub fn pixel_size(scene: &Scene) -> Result<(u32, u32), DrawError> {
    let (w, h) = (scene.width().max(1), scene.height().max(1));
    let k = scale(scene);
    let (pw, ph) = ((w as f64 * k).ceil() as u64, (h as f64 * k).ceil() as u64);
    if pw > MAX_SIDE || ph > MAX_SIDE {
        return Err(DrawError::ImageTooLarge {
            width: w,
            height: h,
            px_width: pw,
            px_height: ph,
        });
    }
    Ok((pw as u32, ph as u32))
}

/// The smallest font size, in pixels, at which cell labels are drawn in a PNG.
pub const MIN_LABEL_PX: f64 = 6.0;

/// Whether the PNG of `scene` shows the cells' labels: when the font (12 units) is at least
/// [`MIN_LABEL_PX`] pixels at [`scale`]; below that the glyphs are unreadable and only the
/// colours are drawn (titles and headers stay).
pub fn shows_labels(scene: &Scene) -> bool {
    12.0 * scale(scene) >= MIN_LABEL_PX
}

/// The PNG of `scene` at [`scale`]: the cell at SVG position `(x, y)` is at pixel
/// `(x·scale, y·scale)`; cell labels as [`shows_labels`] says.
///
/// ```
/// use cute_draw::scene::{Cell, Panel, Scene};
/// let s = Scene::single(Panel::new("t", 1, 1, |_, _| Cell::text((255, 0, 0), "7")));
/// let png = cute_draw::png::render(&s).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
pub fn render(scene: &Scene) -> Result<Vec<u8>, DrawError> {
    pixel_size(scene)?;
    let labels = shows_labels(scene);
    let nodes = scene.svg_nodes(labels);
    if nodes > MAX_SVG_NODES {
        return Err(DrawError::Render(format!(
            "a PNG of this picture parses {nodes} SVG elements, more than the {MAX_SVG_NODES} the renderer reads: draw it as SVG, or draw fewer cells"
        )));
    }
    render_svg(&scene.svg_doc(labels, false), scale(scene))
}

/// The most elements of an SVG document that the renderer (usvg) reads: it refuses more, so a
/// scene of more ([`Scene::svg_nodes`]) is refused before it is written.
pub const MAX_SVG_NODES: i64 = 1_000_000;

/// Rasterises an SVG document (as [`Scene::svg`] writes it) at `scale` pixels per unit.
pub fn render_svg(svg: &str, scale: f64) -> Result<Vec<u8>, DrawError> {
    let opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt)
        .map_err(|e| DrawError::Render(format!("the SVG does not parse: {e}")))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() as f64 * scale).ceil(),
        (size.height() as f64 * scale).ceil(),
    );
    if w > MAX_SIDE as f64 || h > MAX_SIDE as f64 {
        return Err(DrawError::ImageTooLarge {
            width: size.width().ceil() as i64,
            height: size.height().ceil() as i64,
            px_width: w as u64,
            px_height: h as u64,
        });
    }
    let (w, h) = (w as u32, h as u32);
    let mut pixmap = tiny_skia::Pixmap::new(w.max(1), h.max(1)).ok_or_else(|| {
        DrawError::Render(format!("cannot allocate an image of {w} x {h} pixels"))
    })?;
    let s = scale as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(s, s),
        &mut pixmap.as_mut(),
    );
    encode(pixmap)
}

/// The PNG file of `pixmap` (RGBA, 8 bits) at DEFLATE level 1 with the `Up` filter: pictures of
/// layouts are rows of a few flat colours that repeat, so each row mostly filters to zeros, and the
/// fast level compresses them nearly as well as the default (a 4096 × 4096 picture of 65536 cells:
/// 1.64 MB instead of 1.27 MB, the whole drawing 1.4 s of CPU instead of 1.9 s).
fn encode(pixmap: tiny_skia::Pixmap) -> Result<Vec<u8>, DrawError> {
    let fail = |e: png::EncodingError| DrawError::Render(format!("cannot encode the PNG: {e}"));
    let (w, h) = (pixmap.width(), pixmap.height());
    // tiny-skia keeps premultiplied alpha; PNG stores straight alpha
    let data = pixmap.take_demultiplied();
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_deflate_compression(png::DeflateCompression::Level(1));
    enc.set_filter(png::Filter::Up);
    let mut writer = enc.write_header().map_err(fail)?;
    writer.write_image_data(&data).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}
