//! What a failing `cute` prints on stderr (module docs of `cute_cli::cli`), checked without the
//! library's code: the line `error: …`; for an argument that could not be read (the line says
//! `parse:`), possibly exactly two more lines: the argument indented by two spaces, and two spaces,
//! then spaces and `^`s that lie under characters of the echo, or one `^` just after it (the
//! input ended early). Shared by the tests and the `cli` fuzz target (`#[path]`).

/// The number of lines of a well-formed failure (1 or 3), or what is wrong with `err`.
pub fn check(err: &str) -> Result<usize, String> {
    if !err.starts_with("error: ") || !err.ends_with('\n') {
        return Err(format!("not `error: …` and a line break: {err:?}"));
    }
    let lines: Vec<&str> = err.lines().collect();
    match lines.len() {
        1 => Ok(1),
        3 => {
            if !lines[0].contains("parse: ") {
                return Err(format!(
                    "a pointer under an error that is not a parse error: {err:?}"
                ));
            }
            let echo = lines[1]
                .strip_prefix("  ")
                .ok_or_else(|| format!("the echo is not indented by two spaces: {err:?}"))?;
            if echo.chars().any(|c| c.is_control()) {
                return Err(format!("a control character in the echo: {err:?}"));
            }
            let marks = lines[2]
                .strip_prefix("  ")
                .ok_or_else(|| format!("the caret line is not indented by two spaces: {err:?}"))?;
            let start = marks.chars().take_while(|&c| c == ' ').count();
            let carets = marks.chars().skip(start).take_while(|&c| c == '^').count();
            if carets == 0 || start + carets != marks.chars().count() {
                return Err(format!("the caret line is not spaces then `^`s: {err:?}"));
            }
            let width = echo.chars().count();
            let inside = start + carets <= width;
            let just_after = start == width && carets == 1;
            if !inside && !just_after {
                return Err(format!(
                    "carets at columns {start}..{} outside the echo of {width} characters: {err:?}",
                    start + carets
                ));
            }
            Ok(3)
        }
        n => Err(format!("{n} lines: {err:?}")),
    }
}
