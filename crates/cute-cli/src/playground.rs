//! `cute playground`: the layout playground, one page served on localhost. The page and the
//! WebAssembly module (the core and `cute-draw`, built from `crates/cute-wasm` by
//! `scripts/build-playground.sh`) are embedded in the binary; a small HTTP server on
//! `127.0.0.1` serves them to the browser, which does all the work.
//!
//! The server answers `GET` and `HEAD` of `/` and `/cute.wasm` and nothing else: requests are read
//! up to [`MAX_REQUEST`] bytes of head (no body), each connection with a time limit, and a
//! request whose `Host` is not this machine's loopback name is refused (so that another site
//! cannot reach the server through DNS rebinding).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

/// The page (HTML, CSS and the script that talks to the module).
pub const INDEX: &[u8] = include_bytes!("../assets/playground/index.html");
/// The WebAssembly module.
pub const WASM: &[u8] = include_bytes!("../assets/playground/cute.wasm");

/// The largest request head read (bytes); a longer one is answered with status 431.
pub const MAX_REQUEST: usize = 8 * 1024;

/// How long a connection may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The response to one request head (`GET / HTTP/1.1\r\nHost: …\r\n\r\n`), for a server listening
/// on `port`: status line, headers and, but for `HEAD`, the body.
///
/// ```
/// use cute_cli::playground::respond;
/// let r = respond(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n", 8000);
/// assert!(r.starts_with(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"));
/// let r = respond(b"GET /cute.wasm HTTP/1.1\r\nHost: localhost:8000\r\n\r\n", 8000);
/// assert!(r.starts_with(b"HTTP/1.1 200 OK\r\nContent-Type: application/wasm\r\n"));
/// assert!(respond(b"GET /x HTTP/1.1\r\nHost: localhost:8000\r\n\r\n", 8000).starts_with(b"HTTP/1.1 404"));
/// assert!(respond(b"GET / HTTP/1.1\r\nHost: evil.example:8000\r\n\r\n", 8000).starts_with(b"HTTP/1.1 403"));
/// ```
pub fn respond(head: &[u8], port: u16) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(head) else {
        return status(400, "Bad Request", "the request is not UTF-8");
    };
    let mut lines = text.split("\r\n");
    let first = lines.next().unwrap_or("");
    let mut words = first.split(' ');
    let (method, target, version) = (words.next(), words.next(), words.next());
    let (Some(method), Some(target), Some(version)) = (method, target, version) else {
        return status(400, "Bad Request", "malformed request line");
    };
    if !version.starts_with("HTTP/1.") || words.next().is_some() {
        return status(400, "Bad Request", "malformed request line");
    }
    let host = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("host"))
        .map(|(_, v)| v.trim());
    let allowed = [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ];
    match host {
        Some(h) if allowed.iter().any(|a| a.eq_ignore_ascii_case(h)) => {}
        _ => {
            return status(
                403,
                "Forbidden",
                "the Host is not this machine's loopback address",
            )
        }
    }
    let head_only = match method {
        "GET" => false,
        "HEAD" => true,
        _ => return status(405, "Method Not Allowed", "only GET and HEAD"),
    };
    let path = target.split(['?', '#']).next().unwrap_or("");
    let (body, kind) = match path {
        "/" | "/index.html" => (INDEX, "text/html; charset=utf-8"),
        "/cute.wasm" => (WASM, "application/wasm"),
        _ => return status(404, "Not Found", "no such page"),
    };
    let mut r = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src 'self' data:\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    if !head_only {
        r.extend_from_slice(body);
    }
    r
}

fn status(code: u16, reason: &str, why: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{why}\n",
        why.len() + 1
    )
    .into_bytes()
}

/// Reads one request head from `s` (up to the blank line) and writes the response.
fn connection(mut s: TcpStream, port: u16) {
    let _ = s.set_read_timeout(Some(READ_TIMEOUT));
    let _ = s.set_write_timeout(Some(READ_TIMEOUT));
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    let response = loop {
        match s.read(&mut buf) {
            Ok(0) => return, // closed before a full request
            Ok(n) => {
                head.extend_from_slice(&buf[..n]);
                if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
                    break respond(&head[..end + 4], port);
                }
                if head.len() > MAX_REQUEST {
                    break status(
                        431,
                        "Request Header Fields Too Large",
                        "the request head exceeds 8 KiB",
                    );
                }
            }
            Err(_) => return, // timed out or reset
        }
    };
    let _ = s.write_all(&response);
    let _ = s.flush();
}

/// Serves `listener` (bound to `127.0.0.1`) until `limit` connections have been served, or
/// forever; each connection on its own thread.
pub fn serve_on(listener: &TcpListener, limit: Option<usize>) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    for (k, stream) in listener.incoming().enumerate() {
        if let Ok(s) = stream {
            std::thread::spawn(move || connection(s, port));
        }
        if limit.is_some_and(|l| k + 1 >= l) {
            break;
        }
    }
    Ok(())
}

/// `cute playground [--port N] [--no-open]`: listens on `127.0.0.1:port` (0: any free port),
/// prints the address on `out`, opens it in the desktop's browser when `open`, and serves until
/// the process is stopped. Returns only on failure, with the one-line message.
pub fn serve(port: u16, open: bool, out: &mut dyn Write) -> Result<(), String> {
    let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
        format!(
            "error: playground: cannot listen on 127.0.0.1:{port}: {e} (pick another port with --port N, or --port 0 for any free one)"
        )
    })?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("error: playground: {e}"))?
        .port();
    let url = format!("http://127.0.0.1:{port}/");
    writeln!(out, "cute playground: serving {url} (Ctrl-C stops it)")
        .and_then(|_| out.flush())
        .map_err(|e| format!("error: playground: cannot write: {e}"))?;
    if open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        if std::process::Command::new(opener)
            .arg(&url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_err()
        {
            let _ = writeln!(out, "(could not start {opener}: open {url} in a browser)");
            let _ = out.flush();
        }
    }
    serve_on(&listener, None).map_err(|e| format!("error: playground: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(port: u16, raw: &[u8]) -> Vec<u8> {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(raw).unwrap();
        let mut r = Vec::new();
        s.read_to_end(&mut r).unwrap();
        r
    }

    #[test]
    fn serves_the_page_and_the_module_over_tcp() {
        let l = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = l.local_addr().unwrap().port();
        let server = std::thread::spawn(move || serve_on(&l, Some(4)));
        let page = get(
            port,
            format!("GET /?x=1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes(),
        );
        assert!(page.ends_with(INDEX));
        assert!(String::from_utf8_lossy(&page).contains("<title>CuTe layout playground</title>"));
        let wasm = get(
            port,
            format!("GET /cute.wasm HTTP/1.1\r\nhost: localhost:{port}\r\n\r\n").as_bytes(),
        );
        assert!(wasm.ends_with(WASM));
        assert_eq!(&WASM[..4], b"\0asm");
        let head = get(
            port,
            format!("HEAD / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes(),
        );
        assert!(head.ends_with(b"\r\n\r\n") && head.starts_with(b"HTTP/1.1 200 OK"));
        // a request head past the limit is refused, not buffered
        let mut big = b"GET / HTTP/1.1\r\nX: ".to_vec();
        big.extend(std::iter::repeat_n(b'a', MAX_REQUEST + 10));
        assert!(get(port, &big).starts_with(b"HTTP/1.1 431"));
        server.join().unwrap().unwrap();
    }

    #[test]
    fn refuses_what_it_does_not_serve() {
        let h = b"Host: 127.0.0.1:1\r\n\r\n";
        let req = |first: &str| [first.as_bytes(), b"\r\n", h].concat();
        assert!(respond(&req("POST / HTTP/1.1"), 1).starts_with(b"HTTP/1.1 405"));
        assert!(respond(&req("GET /../etc/passwd HTTP/1.1"), 1).starts_with(b"HTTP/1.1 404"));
        assert!(respond(&req("GET / SPDY/3"), 1).starts_with(b"HTTP/1.1 400"));
        assert!(respond(&req("GET"), 1).starts_with(b"HTTP/1.1 400"));
        assert!(respond(b"\xff\xfe\r\n\r\n", 1).starts_with(b"HTTP/1.1 400"));
        assert!(respond(b"GET / HTTP/1.1\r\n\r\n", 1).starts_with(b"HTTP/1.1 403"));
        assert!(
            respond(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:2\r\n\r\n", 1).starts_with(b"HTTP/1.1 403")
        );
    }
}
