//! The page's query string (`?lab=URL`, `?record`, `?backend=webgl2`), read once at load.
//!
//! Clock: none.

/// The page's query parameters that Ledge reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// `?lab=URL`: run this lab script instead of the game.
    pub lab: Option<String>,
    /// `?labs=URL`: run every lab script this list names (one `SCRIPT_URL [--recut R]` a line)
    /// instead of the game: `scripts/determinism`'s browser column.
    pub labs: Option<String>,
    /// `?record`: keep the session as a lab script.
    pub record: bool,
    /// `?backend=webgl2`: no WebGPU.
    pub webgl2_only: bool,
}

impl Query {
    /// Read `search` (`location.search`, with or without its `?`).
    ///
    /// # Errors
    /// One line naming a parameter Ledge does not know or a bad value (`backend` other than
    /// `webgl2` or `webgpu`, an empty `lab`).
    pub fn parse(search: &str) -> Result<Query, String> {
        let mut q = Query::default();
        for pair in search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = decode(value);
            match key {
                "lab" if !value.is_empty() => q.lab = Some(value),
                "lab" => return Err("?lab= needs the URL of a lab script".to_owned()),
                "labs" if !value.is_empty() => q.labs = Some(value),
                "labs" => return Err("?labs= needs the URL of a list of lab scripts".to_owned()),
                "record" => q.record = true,
                "backend" => match value.as_str() {
                    "webgl2" => q.webgl2_only = true,
                    "webgpu" | "" => {}
                    other => {
                        return Err(format!(
                            "?backend={}: not webgl2 or webgpu",
                            crate::printable::escape(other)
                        ));
                    }
                },
                other => {
                    return Err(format!("?{}: not a parameter Ledge reads", crate::printable::escape(other)));
                }
            }
        }
        Ok(q)
    }
}

/// `%XX` escapes and `+` decoded (a query's `application/x-www-form-urlencoded` form); a `%`
/// not followed by two hex digits stays as it is.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = (b[i] == b'%')
            .then(|| b.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (_, Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (c, None) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query() {
        assert_eq!(Query::parse("").unwrap(), Query::default());
        assert_eq!(Query::parse("?labs=list.txt").unwrap().labs.as_deref(), Some("list.txt"));
        let q = Query::parse("?lab=lab/a%20b.lab&record&backend=webgl2").unwrap();
        assert_eq!(q.lab.as_deref(), Some("lab/a b.lab"));
        assert!(q.record && q.webgl2_only);
        assert!(Query::parse("?backend=vulkan").unwrap_err().contains("backend=vulkan"));
        assert!(Query::parse("?zoom=2").unwrap_err().contains("?zoom"));
        assert_eq!(decode("%zz%4"), "%zz%4");
    }
}
