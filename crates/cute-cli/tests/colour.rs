//! `cute show` in colour: CuTe's grey of each offset as ANSI backgrounds, only with `--color
//! always` or on a terminal without `NO_COLOR`, and the same text once the escapes are removed.

use cute_cli::cli::{run, Console};

mod in_process;

use in_process::{cute_on, ok};

// ---------------------------------------------------------------- colour

const PLAIN: &str = "(2,3):(3,1)\n      0   1   2 \n    +---+---+---+\n 0  | 0 | 1 | 2 |\n    +---+---+---+\n 1  | 3 | 4 | 5 |\n    +---+---+---+\n";

/// `s` without its ANSI escapes (`ESC [ … m`).
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\x1b' {
            assert_eq!(it.next(), Some('['));
            for d in it.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn show_color_always_snapshot() {
    let got = ok(&["show", "(2,3):(3,1)", "--color", "always"]);
    let cell = |bg: u8, ink: u8, v: u8| {
        format!("\x1b[48;2;{bg};{bg};{bg};38;2;{ink};{ink};{ink}m {v} \x1b[0m")
    };
    let want = format!(
        "(2,3):(3,1)\n      0   1   2 \n    +---+---+---+\n 0  |{}|{}|{}|\n    +---+---+---+\n 1  |{}|{}|{}|\n    +---+---+---+\n",
        cell(255, 0, 0),
        cell(153, 0, 1),
        cell(204, 0, 2),
        cell(102, 255, 3),
        cell(229, 0, 4),
        cell(127, 255, 5),
    );
    assert_eq!(got, want);
    assert_eq!(strip_ansi(&got), PLAIN);
    // the greys are the pictures' palette
    for v in 0..16 {
        let (g, _, _) = cute_draw::pictures::grey(v);
        let big = ok(&["show", "16:1", "--color", "always"]);
        assert!(big.contains(&format!("\x1b[48;2;{g};{g};{g};")), "{v}");
    }
    // wider cells keep the same text
    let wide = ok(&["show", "(4,8):(1,4)", "--color", "always"]);
    assert_eq!(strip_ansi(&wide), ok(&["show", "(4,8):(1,4)"]));
}

#[test]
fn colour_only_on_a_terminal_without_no_color() {
    let tty = Console {
        stdout_is_terminal: true,
        no_color: false,
    };
    let tty_no_color = Console {
        stdout_is_terminal: true,
        no_color: true,
    };
    let pipe = Console {
        stdout_is_terminal: false,
        no_color: false,
    };
    let coloured = ok(&["show", "(2,3):(3,1)", "--color", "always"]);
    for (console, args, want) in [
        (tty, &["show", "(2,3):(3,1)"][..], coloured.as_str()),
        (
            tty,
            &["show", "(2,3):(3,1)", "--color", "auto"][..],
            &coloured,
        ),
        (tty, &["show", "(2,3):(3,1)", "--color", "never"][..], PLAIN),
        (tty_no_color, &["show", "(2,3):(3,1)"][..], PLAIN),
        (
            tty_no_color,
            &["show", "(2,3):(3,1)", "--color", "always"][..],
            &coloured,
        ),
        (pipe, &["show", "(2,3):(3,1)"][..], PLAIN),
        (
            pipe,
            &["show", "(2,3):(3,1)", "--color", "always"][..],
            &coloured,
        ),
    ] {
        let (code, out, err) = cute_on(args, console);
        assert_eq!((code, err.as_str()), (0, ""), "{console:?} {args:?}");
        assert_eq!(out, want, "{console:?} {args:?}");
    }
    // `run` (no console) never colours under auto
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(run(["cute", "show", "(2,3):(3,1)"], &mut out, &mut err), 0);
    assert_eq!(String::from_utf8(out).unwrap(), PLAIN);
}

/// Layouts with F2 or coordinate strides print their values as the pictures label them: F2
/// values as the integers of their bits (on their greys), coordinates as `(i,j)` (on the
/// pictures' tile colours); `--json` gives numbers for the first and strings for the second.
#[test]
fn show_prints_binary_and_coordinate_values() {
    // F1 xor F2 = 3: the same table as the integer layout (2,2):(1,2)
    let f2 = ok(&["show", "(2,2):(F1,F2)"]);
    assert_eq!(
        f2.replacen("(2,2):(F1,F2)", "(2,2):(1,2)", 1),
        ok(&["show", "(2,2):(1,2)"])
    );
    let f2 = ok(&["show", "(2,2):(F1,F3)", "--color", "always"]);
    let (g, _, _) = cute_draw::pictures::grey(3);
    assert!(
        f2.contains(&format!("\x1b[48;2;{g};{g};{g};38;2;255;255;255m 3 ")),
        "{f2}"
    );
    let id = ok(&["show", "(2,3):(1@0,1@1)"]);
    assert_eq!(
        id,
        "(2,3):(1@0,1@1)\n          0       1       2 \n    +-------+-------+-------+\n 0  | (0,0) | (0,1) | (0,2) |\n    +-------+-------+-------+\n 1  | (1,0) | (1,1) | (1,2) |\n    +-------+-------+-------+\n"
    );
    let coloured = ok(&["show", "(2,3):(1@0,1@1)", "--color", "always"]);
    assert_eq!(strip_ansi(&coloured), id);
    let (r, g, b) = cute_draw::pictures::tile_colour(0);
    assert!(
        coloured.contains(&format!("\x1b[48;2;{r};{g};{b};")),
        "{coloured}"
    );
    assert_eq!(
        ok(&["show", "(2,2):(F1,F3)", "--json"]),
        "{\"layout\": \"(2,2):(F1,F3)\", \"rows\": [[0, 3], [1, 2]]}\n"
    );
    assert_eq!(
        ok(&["show", "2:1@1", "--json"]),
        "{\"layout\": \"2:1@1\", \"rows\": [[\"(0,0)\", \"(0,1)\"]]}\n"
    );
}
