// Text: one instanced quad per glyph, cut from a coverage atlas (one byte a texel) that
// src/render/text.rs rasterises the shipped font into. Clock: render frame. Mirrors
// `TextUniform` and `GlyphInstance` in src/render/text.rs (keep the three in step;
// tests/shaders.rs validates this file).
//
// Every glyph sits on whole window pixels at the size it was rasterised, so each fragment reads
// exactly one atlas texel (textureLoad, no filtering): the glyph's own anti-aliased coverage.
// The output is premultiplied: colour * coverage, drawn with premultiplied-alpha blending.

struct TextUniform {
    // The target's size, window pixels.
    size: vec2<f32>,
    _pad: vec2<f32>,
};

@group(0) @binding(0) var<uniform> screen: TextUniform;
@group(0) @binding(1) var atlas: texture_2d<f32>;

struct Glyph {
    // Top-left, window pixels (whole).
    @location(0) pos: vec2<f32>,
    // Width and height, pixels (the rasterised bitmap's).
    @location(1) size: vec2<f32>,
    // The bitmap's top-left texel in the atlas.
    @location(2) texel: vec2<f32>,
    // Colour in the target's encoding (linear for an sRGB target), straight alpha.
    @location(3) color: vec4<f32>,
};

struct Out {
    @builtin(position) position: vec4<f32>,
    // Atlas texel of the window pixel at `pos`, and `pos` itself: the fragment's texel is
    // texel + (pixel - pos).
    @location(0) @interpolate(flat) texel: vec2<f32>,
    @location(1) @interpolate(flat) pos: vec2<f32>,
    @location(2) @interpolate(flat) color: vec4<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32, glyph: Glyph) -> Out {
    // A triangle strip: (0,0), (1,0), (0,1), (1,1).
    let corner = vec2<f32>(f32(i & 1u), f32((i >> 1u) & 1u));
    let px = glyph.pos + corner * glyph.size;
    var out: Out;
    out.position = vec4<f32>(px.x / screen.size.x * 2.0 - 1.0, 1.0 - px.y / screen.size.y * 2.0, 0.0, 1.0);
    out.texel = glyph.texel;
    out.pos = glyph.pos;
    out.color = glyph.color;
    return out;
}

@fragment
fn fs_main(in: Out) -> @location(0) vec4<f32> {
    let at = vec2<i32>(in.texel + floor(in.position.xy) - in.pos);
    let coverage = textureLoad(atlas, at, 0).r * in.color.a;
    return vec4<f32>(in.color.rgb * coverage, coverage);
}
