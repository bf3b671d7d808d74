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
