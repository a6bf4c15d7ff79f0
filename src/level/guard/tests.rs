use super::*;
use crate::level::files::MemoryFiles;
use crate::level::tiled_map::load_tmx_from;
use std::io::Write;
use std::path::PathBuf;

/// A map `w` x 2 tiles (`map_wh`: `w` x `h`) whose tile layer's `<data>` has attributes `attrs` and body
/// `data`; one spawn object.
fn map(w: u64, attrs: &str, data: &str) -> String {
    map_wh(w, 2, attrs, data)
}

fn map_wh(w: u64, h: u64, attrs: &str, data: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" source="../tilesets/ledge.tsx"/>
 <layer id="1" name="tiles" width="{w}" height="{h}">
  <data {attrs}>{data}</data>
 </layer>
 <objectgroup id="2" name="objects">
  <object id="1" type="spawn" x="8" y="8"/>
 </objectgroup>
</map>"#
    )
}

/// `n` cells of tile 0 as CSV.
fn csv(n: usize) -> String {
    vec!["0"; n].join(",")
}

/// Base64 of `bytes` (the engine Tiled writes with).
fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn zlib(n: usize) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(&vec![0u8; n]).unwrap();
    e.finish().unwrap()
}

fn gzip(n: usize) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(&vec![0u8; n]).unwrap();
    e.finish().unwrap()
}

fn zstd_of(n: usize) -> Vec<u8> {
    zstd::encode_all(&vec![0u8; n][..], 1).unwrap()
}

/// The shipped tileset and its image, in memory under `assets/`, plus the map at
/// `assets/levels/t.tmx`.
fn files_with(map_text: &str) -> (MemoryFiles, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = MemoryFiles::default();
    files.insert("assets/tilesets/ledge.tsx", std::fs::read(root.join("assets/tilesets/ledge.tsx")).unwrap());
    files.insert("assets/sprites/atlas.png", Vec::new());
    files.insert("assets/levels/t.tmx", map_text.as_bytes().to_vec());
    (files, PathBuf::from("assets/levels/t.tmx"))
}

#[test]
fn every_shipped_map_and_tileset_passes_and_the_bad_fixtures_are_told_apart() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let refused = ["short_data.tmx", "infinite.tmx", "not_xml.tmx", "bomb_zlib.tmx"];
    let mut n = 0;
    for dir in ["assets/levels", "assets/tilesets", "tests/fixtures/levels"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if matches!(path.extension().and_then(|e| e.to_str()), Some("tmx" | "tsx" | "tx")) {
                let bytes = std::fs::read(&path).unwrap();
                let name = path.file_name().unwrap().to_str().unwrap();
                let result = check(&bytes);
                assert_eq!(result.is_err(), refused.contains(&name), "{}: {result:?}", path.display());
                n += 1;
            }
        }
    }
    assert!(n >= 30, "only {n} files checked");
}

#[test]
fn layer_data_of_exactly_width_by_height_cells_passes_in_every_encoding() {
    let cells = 2 * 5;
    assert_eq!(check(map(5, r#"encoding="csv""#, &csv(cells)).as_bytes()), Ok(()));
    assert_eq!(check(map(5, r#"encoding="base64""#, &b64(&vec![0; cells * 4])).as_bytes()), Ok(()));
    let cdata = format!("<![CDATA[{}]]>", b64(&vec![0; cells * 4]));
    assert_eq!(check(map(5, r#"encoding="base64""#, &cdata).as_bytes()), Ok(()));
    for (c, bytes) in [("zlib", zlib(cells * 4)), ("gzip", gzip(cells * 4)), ("zstd", zstd_of(cells * 4))] {
        let attrs = format!(r#"encoding="base64" compression="{c}""#);
        assert_eq!(check(map(5, &attrs, &b64(&bytes)).as_bytes()), Ok(()), "{c}");
    }
}

#[test]
fn short_or_long_layer_data_is_refused_with_its_line() {
    let short = check(map(5, r#"encoding="csv""#, &csv(9)).as_bytes()).unwrap_err();
    assert_eq!(short, "line 5: layer 'tiles': data holds 9 cells, not 5x2 = 10");
    let long = check(map(5, r#"encoding="csv""#, &csv(11)).as_bytes()).unwrap_err();
    assert_eq!(long, "line 5: layer 'tiles': data holds 11 cells, not 5x2 = 10");
    let plain = check(map(5, r#"encoding="base64""#, &b64(&[0; 36])).as_bytes()).unwrap_err();
    assert_eq!(plain, "line 5: layer 'tiles': data decodes to 36 bytes, not 5x2 tiles x 4 = 40 bytes");
    let empty = check(map(5, r#"encoding="csv""#, "").as_bytes()).unwrap_err();
    assert_eq!(empty, "line 5: layer 'tiles': data holds 1 cells, not 5x2 = 10");
}

/// A bomb: a layer of 40 bytes whose stream inflates to 64 MiB. The guard reads 41 bytes of it.
#[test]
fn a_compressed_layer_that_inflates_past_its_size_is_refused_for_each_compression() {
    let n = 64 << 20;
    for (c, bytes) in [("zlib", zlib(n)), ("gzip", gzip(n)), ("zstd", zstd_of(n))] {
        let attrs = format!(r#"encoding="base64" compression="{c}""#);
        let e = check(map(5, &attrs, &b64(&bytes)).as_bytes()).unwrap_err();
        assert_eq!(
            e, "line 5: layer 'tiles': data decodes to 41 or more bytes, not 5x2 tiles x 4 = 40 bytes",
            "{c}"
        );
    }
}

#[test]
fn broken_streams_and_unknown_encodings_are_refused() {
    let e = check(map(5, r#"encoding="base64""#, "@@@").as_bytes()).unwrap_err();
    assert!(e.starts_with("line 5: layer 'tiles': data is not valid Base64"), "{e}");
    let e =
        check(map(5, r#"encoding="base64" compression="zlib""#, &b64(b"not zlib")).as_bytes()).unwrap_err();
    assert!(e.starts_with("line 5: layer 'tiles': data is not valid zlib"), "{e}");
    let e = check(map(5, r#"encoding="base64" compression="lzma""#, "").as_bytes()).unwrap_err();
    assert!(e.contains("unknown tile layer compression 'lzma'"), "{e}");
    let e = check(map(5, "", "").as_bytes()).unwrap_err();
    assert!(e.contains("must be CSV or Base64"), "{e}");
}

/// Found by fuzzing (tests/fuzz-regressions/tmx/nested-layer-in-data.tmx): `tiled` reads
/// elements and attributes by their local names, the last attribute of a name winning, and
/// skips elements it does not know, inside a layer and inside its data; the guard must count
/// the cells `tiled` will index, whatever wraps them.
#[test]
fn the_cells_tiled_reads_are_counted_whatever_wraps_them() {
    let nested = map(5, r#"encoding="csv""#, &format!("<layer><data>{}</data></layer>{}", csv(10), csv(1)));
    let e = check(nested.as_bytes()).unwrap_err();
    assert_eq!(e, "line 5: layer 'tiles': <layer> inside the data: Tiled writes only text there");
    let inner_layer =
        map(5, r#"encoding="csv""#, &csv(9)).replace("  <data ", r#"  <layer name="x"/><data "#);
    let e = check(inner_layer.as_bytes()).unwrap_err();
    assert_eq!(e, "line 5: layer 'tiles': data holds 9 cells, not 5x2 = 10");
    let prefixed = map(5, r#"encoding="csv""#, &csv(9))
        .replace(r#"<layer id="1" name="tiles" width="5""#, r#"<t:layer id="1" name="tiles" t:width="5""#)
        .replace("</layer>", "</t:layer>");
    let e = check(prefixed.as_bytes()).unwrap_err();
    assert_eq!(e, "line 5: layer 'tiles': data holds 9 cells, not 5x2 = 10");
    let last_wins = map(5, r#"encoding="csv""#, &csv(10))
        .replace(r#"width="5" height="2">"#, r#"width="5" height="2" x:width="9">"#);
    let e = check(last_wins.as_bytes()).unwrap_err();
    assert_eq!(e, "line 5: layer 'tiles': data holds 10 cells, not 9x2 = 18");
    let xml_format = map(5, "", r#"<tile gid="1"/>"#);
    assert!(check(xml_format.as_bytes()).unwrap_err().contains("must be CSV or Base64"));
}

#[test]
fn sizes_counts_and_nesting_over_the_limits_are_refused() {
    let big = map(5, r#"encoding="csv""#, "0")
        .replace(r#"width="5" height="2" tilewidth"#, r#"width="4000" height="2" tilewidth"#);
    assert_eq!(check(big.as_bytes()).unwrap_err(), "line 2: map is 4000x2 tiles; the most is 2048 a side");
    let wide = map_wh(1000, 300, r#"encoding="csv""#, "0");
    assert_eq!(
        check(wide.as_bytes()).unwrap_err(),
        "line 2: map is 1000x300 = 300000 tiles; the most is 262144"
    );
    let layers = format!(
        r#"<map width="512" height="512">{}</map>"#,
        r#"<layer width="512" height="512"/>"#.repeat(5)
    );
    assert_eq!(
        check(layers.as_bytes()).unwrap_err(),
        "line 1: the tile layers hold more than 1048576 cells together"
    );
    let infinite = map(5, r#"encoding="csv""#, &csv(10)).replace(r#"infinite="0""#, r#"infinite="1""#);
    assert_eq!(check(infinite.as_bytes()).unwrap_err(), "line 2: infinite maps are not supported");
    let objects = "<object id=\"9\"/>".repeat(MAX_OBJECTS);
    let many =
        map(5, r#"encoding="csv""#, &csv(10)).replace("</objectgroup>", &format!("{objects}</objectgroup>"));
    assert_eq!(check(many.as_bytes()).unwrap_err(), format!("line 9: more than {MAX_OBJECTS} objects"));
    let props = format!(
        "<properties>{}</properties>",
        "<property name=\"a\" value=\"1\"/>".repeat(MAX_PROPERTIES + 1)
    );
    let many = map(5, r#"encoding="csv""#, &csv(10)).replace(
        "type=\"spawn\" x=\"8\" y=\"8\"/>",
        &format!("type=\"spawn\" x=\"8\" y=\"8\">{props}</object>"),
    );
    assert_eq!(
        check(many.as_bytes()).unwrap_err(),
        format!("line 8: more than {MAX_PROPERTIES} properties on one element")
    );
    let deep = format!("<map>{}{}</map>", "<group>".repeat(MAX_DEPTH), "</group>".repeat(MAX_DEPTH));
    assert_eq!(
        check(deep.as_bytes()).unwrap_err(),
        format!("line 1: elements nested more than {MAX_DEPTH} deep")
    );
    let tiles = r#"<tileset name="t" tilewidth="16" tileheight="16" tilecount="4000000000" columns="8"/>"#;
    assert_eq!(
        check(tiles.as_bytes()).unwrap_err(),
        format!("line 1: tileset declares more than {MAX_TILECOUNT} tiles")
    );
    let margin = r#"<tileset name="t" tilewidth="16" tileheight="16" margin="9"><image source="a.png" width="4" height="4"/></tileset>"#;
    assert!(check(margin.as_bytes()).unwrap_err().contains("less than its margin"));
}

#[test]
fn xml_that_is_not_well_formed_is_refused_with_its_line() {
    let e = check(b"<map>\n <layer>\n</map>").unwrap_err();
    assert!(e.starts_with("line 3: not well-formed XML"), "{e}");
    let e = check(b"<map>\n <objectgroup <broken id=\"2\">\n</objectgroup></map>").unwrap_err();
    assert!(e.starts_with("line 2: not well-formed XML"), "{e}");
}

#[test]
fn a_refused_layer_is_one_line_naming_the_map_through_the_loader() {
    let (mut files, path) = files_with(&map(5, r#"encoding="csv""#, &csv(9)));
    let e = load_tmx_from(&path, &mut files).unwrap_err().to_string();
    assert_eq!(e, "assets/levels/t.tmx: line 5: layer 'tiles': data holds 9 cells, not 5x2 = 10");
    let (mut files, path) = files_with(&map(5, r#"encoding="csv""#, &csv(10)));
    let level = load_tmx_from(&path, &mut files).unwrap();
    let origin = level.origin.unwrap();
    assert_eq!(origin.files.len(), 2, "{:?}", origin.files);
    assert_eq!(origin.map(), Some(path.as_path()));
}

#[test]
fn a_refused_tileset_is_named_in_the_maps_line() {
    let (mut files, path) = files_with(&map(5, r#"encoding="csv""#, &csv(10)));
    files.insert("assets/tilesets/ledge.tsx", br#"<tileset name="t" tilecount="99999999"/>"#.to_vec());
    let e = load_tmx_from(&path, &mut files).unwrap_err().to_string();
    assert_eq!(
        e,
        "assets/levels/t.tmx: assets/levels/../tilesets/ledge.tsx: line 1: tileset declares more than 65536 tiles"
    );
    files.insert("assets/tilesets/ledge.tsx", vec![b' '; MAX_TILESET_BYTES as usize + 1]);
    let e = load_tmx_from(&path, &mut files).unwrap_err().to_string();
    assert!(
        e.ends_with(&format!("is {} bytes, over the limit of {MAX_TILESET_BYTES}", MAX_TILESET_BYTES + 1)),
        "{e}"
    );
}

#[test]
fn the_content_hash_follows_the_map_and_its_tileset() {
    let text = map(5, r#"encoding="csv""#, &csv(10));
    let hash = |files: &mut MemoryFiles| {
        load_tmx_from(Path::new("assets/levels/t.tmx"), files).unwrap().origin.unwrap().sha256
    };
    let (mut files, _) = files_with(&text);
    let first = hash(&mut files);
    assert_eq!(hash(&mut files), first);
    files.insert("assets/levels/t.tmx", text.replace("0,0,0", "0,0,1").into_bytes());
    let edited = hash(&mut files);
    assert_ne!(edited, first);
    let tsx =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/tilesets/ledge.tsx"))
            .unwrap();
    files.insert("assets/tilesets/ledge.tsx", tsx.replace("<tileset ", "<tileset  ").into_bytes());
    assert_ne!(hash(&mut files), edited);
}
