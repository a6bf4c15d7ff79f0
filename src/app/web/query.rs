//! The page's query string (`?lab=URL`, `?record`, `?backend=webgl2`, `?bare`, …), read once at
//! load.
//!
//! Clock: none.

/// The page's query parameters that Ledge reads.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// `?net=ws://HOST:PORT/ROOM`: race in this room (NET.md).
    pub net: Option<crate::race::NetSpec>,
    /// `?players=N`: the race's players, 2 to 4.
    pub players: Option<usize>,
    /// `?exit_after=S`: end the race at S seconds of its clock.
    pub exit_after: Option<f64>,
    /// `?bench=rollback`: time the race's re-simulation instead of the game
    /// (`window.ledgeBench`).
    pub bench: bool,
    /// `?bare`: every frame only clears the canvas and presents (the page's own floor: what a
    /// frame costs before Ledge draws anything; docs/speed.md). The game runs as usual.
    pub bare: bool,
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
                "bare" => q.bare = true,
                "bench" if value == "rollback" => q.bench = true,
                "bench" => {
                    return Err(format!(
                        "?bench={}: the one bench is rollback",
                        crate::printable::escape(&value)
                    ));
                }
                "net" => match value.parse::<crate::race::NetSpec>() {
                    Ok(n @ crate::race::NetSpec::Room { .. }) => q.net = Some(n),
                    Ok(_) => return Err("?net=: a page races in a room: ws://HOST:PORT/ROOM".to_owned()),
                    Err(e) => {
                        return Err(format!("?{}", crate::printable::escape(e.trim_start_matches("--"))));
                    }
                },
                "players" => match value.parse::<usize>() {
                    Ok(n) if (2..=crate::sim::MAX_PLAYERS).contains(&n) => q.players = Some(n),
                    _ => return Err(format!("?players={}: 2 to 4", crate::printable::escape(&value))),
                },
                "exit_after" => match value.parse::<f64>() {
                    Ok(s) if s.is_finite() && s >= 0.0 => q.exit_after = Some(s),
                    _ => {
                        return Err(format!(
                            "?exit_after={}: a non-negative number of seconds",
                            crate::printable::escape(&value)
                        ));
                    }
                },
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
        match (&q.net, q.players) {
            (Some(_), None) => return Err("?net= needs &players=N (2 to 4)".to_owned()),
            (None, Some(_)) => return Err("?players= goes with ?net=ws://HOST:PORT/ROOM".to_owned()),
            _ => {}
        }
        if q.exit_after.is_some() && q.net.is_none() {
            return Err("?exit_after= goes with ?net=ws://HOST:PORT/ROOM".to_owned());
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
        assert!(q.record && q.webgl2_only && !q.bare);
        assert!(Query::parse("?bare&backend=webgl2").unwrap().bare);
        assert!(Query::parse("?backend=vulkan").unwrap_err().contains("backend=vulkan"));
        assert!(Query::parse("?zoom=2").unwrap_err().contains("?zoom"));
        assert_eq!(decode("%zz%4"), "%zz%4");
        let race = Query::parse("?net=ws%3A%2F%2F127.0.0.1%3A3536%2Fr&players=2&exit_after=4").unwrap();
        assert_eq!(race.players, Some(2));
        assert_eq!(race.exit_after, Some(4.0));
        assert!(matches!(race.net, Some(crate::race::NetSpec::Room { ref room, .. }) if room == "r"));
        assert!(Query::parse("?net=ws://h:1/r").unwrap_err().contains("&players=N"));
        assert!(Query::parse("?net=ws://h:1/r&players=5").unwrap_err().contains("2 to 4"));
        assert!(Query::parse("?net=udp:7000&players=2").unwrap_err().contains("a page races in a room"));
        assert!(Query::parse("?net=ws://h:1/&players=2").unwrap_err().starts_with("?net ws://h:1/: ROOM"));
        assert!(Query::parse("?exit_after=-1").unwrap_err().contains("exit_after"));
        assert!(Query::parse("?bench=rollback").unwrap().bench);
        assert!(Query::parse("?bench=draw").unwrap_err().contains("rollback"));
    }
}
