// The window pass's picture: the sky image (view-aligned) and the world image (level-aligned,
// premultiplied alpha) drawn at art resolution, scaled onto the letterboxed viewport in one
// full-viewport triangle. Clock: render frame. Mirrors `CompositeUniform` in
// src/render/composite.rs (keep the two in step; tests/shaders.rs validates this file).
//
// Each window pixel reads exactly one texel of each image (textureLoad, no filtering): the sky
// at floor(p / scale), the world at floor((p + shift) / scale), where p is the pixel's offset
// from the viewport's top-left and shift the camera's sub-pixel remainder in whole window
// pixels (src/present/art.rs). The world is premultiplied (its transparent texels show the sky):
// out = world.rgb + sky.rgb * (1 - world.a).

struct Composite {
    // The letterboxed viewport's top-left, window pixels.
    origin: vec2<f32>,
    // The world image's shift left and up, window pixels (whole).
    shift: vec2<f32>,
    // Window pixels per art pixel.
    scale: f32,
    _pad0: f32,
    _pad1: vec2<f32>,
};

@group(0) @binding(0) var<uniform> composite: Composite;
@group(0) @binding(1) var sky_image: texture_2d<f32>;
@group(0) @binding(2) var world_image: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // One triangle covering the viewport: (-1,-1), (3,-1), (-1,3).
    let x = f32((i & 1u) << 2u) - 1.0;
    let y = f32((i & 2u) << 1u) - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

fn texel(image: texture_2d<f32>, at: vec2<f32>) -> vec4<f32> {
    let size = vec2<i32>(textureDimensions(image));
    let c = clamp(vec2<i32>(floor(at)), vec2<i32>(0, 0), size - vec2<i32>(1, 1));
    return textureLoad(image, c, 0);
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    // The pixel's top-left corner, from the viewport's (pixel centres are at .5).
    let p = floor(position.xy) - composite.origin;
    let sky = texel(sky_image, p / composite.scale);
    let world = texel(world_image, (p + composite.shift) / composite.scale);
    return vec4<f32>(world.rgb + sky.rgb * (1.0 - world.a), 1.0);
}

// The raw composite (src/render/composite.rs "Two composites"): both images read through plain
// views (their stored sRGB bytes, no decode) and the result written to a plain view of the
// target (no encode). World over sky in a gamma-2 approximation of the linear blend: exact
// where the world texel is opaque (sqrt(world²) = world) or empty (sqrt(sky²) = sky), within
// 10 / 255 where it is translucent.
@fragment
fn fs_raw(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let p = floor(position.xy) - composite.origin;
    let sky = texel(sky_image, p / composite.scale).rgb;
    let world = texel(world_image, (p + composite.shift) / composite.scale);
    return vec4<f32>(sqrt(world.rgb * world.rgb + sky * sky * (1.0 - world.a)), 1.0);
}
