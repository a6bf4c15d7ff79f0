// The window pass's picture: the sky image (view-aligned) and the world image (level-aligned,
// premultiplied alpha) drawn at art resolution, scaled onto the letterboxed viewport in one
// full-viewport triangle. Clock: render frame. Mirrors `CompositeUniform` in
// src/render/composite.rs (keep the two in step; tests/shaders.rs validates this file).
//
// Each window pixel reads exactly one texel of each image through a nearest sampler (no
// filtering): the texel under the pixel's centre, p + 0.5 window pixels from the viewport's
// top-left, of the sky at (p + 0.5) / scale and of the world at (p + 0.5 + shift) / scale art
// pixels, where shift is the camera's sub-pixel remainder in whole window pixels
// (src/present/art.rs). At an integer scale those are the texels floor(p / scale) and
// floor((p + shift) / scale): (p + 0.5) / scale is never a whole number there, so no pixel sits
// on a texel edge. The coordinates are affine in the pixel's position, so the vertex stage
// works them out at the triangle's corners and the rasteriser interpolates them: the fragment
// stage is two samples and a blend. (A textureLoad per pixel, with the integer arithmetic and
// the bounds clamp it needs, cost lavapipe 2.4 ms more a 1280x720 frame and Chromium's WebGPU
// on SwiftShader twice the frame time: docs/speed.md "The renderer".) The world is
// premultiplied (its transparent texels show the sky): out = world.rgb + sky.rgb * (1 - world.a).

struct Composite {
    // The letterboxed viewport's size, window pixels.
    viewport: vec2<f32>,
    _pad: vec2<f32>,
    // The sky image's normalised coordinates at p window pixels from the viewport's top-left:
    // p * sky.xy + sky.zw.
    sky: vec4<f32>,
    // The same for the world image: p * world.xy + world.zw.
    world: vec4<f32>,
};

@group(0) @binding(0) var<uniform> composite: Composite;
@group(0) @binding(1) var sky_image: texture_2d<f32>;
@group(0) @binding(2) var world_image: texture_2d<f32>;
@group(0) @binding(3) var nearest: sampler;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) sky: vec2<f32>,
    @location(1) world: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> VertexOut {
    // One triangle covering the viewport: (-1,-1), (3,-1), (-1,3).
    let x = f32((i & 1u) << 2u) - 1.0;
    let y = f32((i & 2u) << 1u) - 1.0;
    // This corner in window pixels from the viewport's top-left (y grows downward).
    let p = vec2<f32>(x + 1.0, 1.0 - y) * 0.5 * composite.viewport;
    var out: VertexOut;
    out.clip = vec4<f32>(x, y, 0.0, 1.0);
    out.sky = p * composite.sky.xy + composite.sky.zw;
    out.world = p * composite.world.xy + composite.world.zw;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let sky = textureSample(sky_image, nearest, in.sky);
    let world = textureSample(world_image, nearest, in.world);
    return vec4<f32>(world.rgb + sky.rgb * (1.0 - world.a), 1.0);
}

// The raw composite (src/render/composite.rs "Two composites"): both images read through plain
// views (their stored sRGB bytes, no decode) and the result written to a plain view of the
// target (no encode). World over sky in a gamma-2 approximation of the linear blend: exact
// where the world texel is opaque (sqrt(world²) = world) or empty (sqrt(sky²) = sky), within
// 10 / 255 where it is translucent.
@fragment
fn fs_raw(in: VertexOut) -> @location(0) vec4<f32> {
    let sky = textureSample(sky_image, nearest, in.sky).rgb;
    let world = textureSample(world_image, nearest, in.world);
    return vec4<f32>(sqrt(world.rgb * world.rgb + sky * sky * (1.0 - world.a)), 1.0);
}
