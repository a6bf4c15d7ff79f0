// Instanced sprites: one unit quad (4 vertices from vertex_index, triangle strip) drawn once
// per instance. Clock: render frame. Mirrors `SpriteUniform` / `SpriteInstance` in
// src/render/sprites.rs (keep the two in step; tests/shaders.rs validates this file).

struct Camera {
    // Camera centre, level pixels.
    center: vec2<f32>,
    // Visible area, level pixels (640 x 360): maps exactly onto the viewport.
    view_size: vec2<f32>,
    // Window pixels per level pixel (integer when the window is at least 640 x 360). Quad
    // corners are snapped to whole window pixels so pixel art stays crisp at any camera offset.
    scale: f32,
    _pad0: f32,
    _pad1: vec2<f32>,
};

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var atlas_texture: texture_2d<f32>;
@group(0) @binding(2) var atlas_sampler: sampler;

struct Instance {
    // Top-left corner, level pixels.
    @location(0) pos: vec2<f32>,
    // Width and height, level pixels.
    @location(1) size: vec2<f32>,
    // Inner atlas cell (u0, v0, u1, v1), normalised; or a linear RGBA colour when flags bit 1.
    @location(2) uv_rect: vec4<f32>,
    // bit 0: mirror horizontally; bit 1: solid colour fill (uv_rect is the colour); bit 2: a
    // ghost (tinted, translucent; drawn with blending).
    @location(3) flags: u32,
    // Rotation about the quad's centre, radians, clockwise on screen (y grows downward);
    // 0 (everything but the spinning goal) takes the unrotated path below unchanged.
    @location(4) rotation: f32,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) @interpolate(flat) color: vec4<f32>,
    @location(2) @interpolate(flat) flags: u32,
};

const FLAG_FLIP_X: u32 = 1u;
const FLAG_SOLID: u32 = 2u;
const FLAG_GHOST: u32 = 4u;
// A ghost's texels go half way to this colour (linear; sRGB 190, 240, 255, a pale cyan) and are
// drawn this opaque.
const GHOST_TINT: vec3<f32> = vec3<f32>(0.5149, 0.8714, 1.0);
const GHOST_ALPHA: f32 = 0.45;
// A race's other runner (flags bit 3): its texels go 55 % of the way to its player's colour,
// bits 4-5 (0: player 1 … 3: player 4), drawn 85 % opaque (with blending).
const FLAG_RIVAL: u32 = 8u;
const RIVAL_ALPHA: f32 = 0.85;
// Linear RGB of sRGB (255, 120, 60) orange, (90, 220, 90) green, (120, 140, 255) blue,
// (255, 220, 60) yellow; src/present/instances.rs RIVAL_SRGB is the same table in sRGB.
const RIVAL_TINTS: array<vec3<f32>, 4> = array<vec3<f32>, 4>(
    vec3<f32>(1.0, 0.1878, 0.0452),
    vec3<f32>(0.1022, 0.7157, 0.1022),
    vec3<f32>(0.1878, 0.2623, 1.0),
    vec3<f32>(1.0, 0.7157, 0.0452),
);

@vertex
fn vs_main(@builtin(vertex_index) vertex_index: u32, inst: Instance) -> VertexOut {
    return corner_of(vertex_index, inst);
}

// The raw pipeline's vertex stage (src/render/pipeline.rs `Blend::Raw`): the same corner, with
// a solid fill's linear colour encoded to sRGB here, once per vertex, since the raw target
// stores what the fragment stage returns as it is.
@vertex
fn vs_raw(@builtin(vertex_index) vertex_index: u32, inst: Instance) -> VertexOut {
    var out = corner_of(vertex_index, inst);
    out.color = vec4<f32>(linear_to_srgb(out.color.rgb), out.color.a);
    return out;
}

// The sRGB transfer function (IEC 61966-2-1), linear 0..1 to encoded 0..1.
fn linear_to_srgb(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}

// One corner of an instance's quad: its clip position (snapped to whole window pixels), atlas
// coordinate, colour and flags.
fn corner_of(vertex_index: u32, inst: Instance) -> VertexOut {
    // 0: (0,0)  1: (1,0)  2: (0,1)  3: (1,1)
    let corner = vec2<f32>(f32(vertex_index & 1u), f32(vertex_index >> 1u));
    let top_left = camera.center - camera.view_size * 0.5;
    var px: vec2<f32>;
    if inst.rotation == 0.0 {
        let world = inst.pos + corner * inst.size;
        // Window pixels from the view's top-left corner, snapped to whole pixels. floor(v + 0.5),
        // not round(): WGSL's round() is half-to-even, which could snap the two edges of one
        // quad in different directions and change its size by a pixel.
        px = floor((world - top_left) * camera.scale + 0.5);
    } else {
        // Turn the corner about the quad's centre. Only the centre is snapped (the same shift
        // the tiles around it get); the turned corners land between pixels, and the rasteriser
        // and nearest sampling give the stair-stepped edges of rotated pixel art.
        let centre = inst.pos + 0.5 * inst.size;
        let c = cos(inst.rotation);
        let s = sin(inst.rotation);
        let local = (corner - 0.5) * inst.size;
        let turned = vec2<f32>(c * local.x - s * local.y, s * local.x + c * local.y);
        px = floor((centre - top_left) * camera.scale + 0.5) + turned * camera.scale;
    }
    let ndc = px / (camera.view_size * camera.scale) * 2.0 - 1.0;

    var out: VertexOut;
    out.clip = vec4<f32>(ndc.x, -ndc.y, 0.0, 1.0);
    var u = corner.x;
    if (inst.flags & FLAG_FLIP_X) != 0u {
        u = 1.0 - u;
    }
    out.uv = mix(inst.uv_rect.xy, inst.uv_rect.zw, vec2<f32>(u, corner.y));
    out.color = inst.uv_rect;
    out.flags = inst.flags;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    // Sample unconditionally (uniform control flow), then choose.
    let texel = textureSample(atlas_texture, atlas_sampler, in.uv);
    if (in.flags & FLAG_SOLID) != 0u {
        return in.color;
    }
    if texel.a < 0.5 {
        discard;
    }
    if (in.flags & FLAG_GHOST) != 0u {
        return vec4<f32>(mix(texel.rgb, GHOST_TINT, 0.5), GHOST_ALPHA);
    }
    if (in.flags & FLAG_RIVAL) != 0u {
        let tint = RIVAL_TINTS[(in.flags >> 4u) & 3u];
        return vec4<f32>(mix(texel.rgb, tint, 0.55), RIVAL_ALPHA);
    }
    // Opaque: what survives the alpha test covers what is under it (the world image keeps
    // premultiplied alpha, src/render/composite.rs).
    return vec4<f32>(texel.rgb, 1.0);
}

// The raw pipeline's fragment stage (src/render/pipeline.rs `Blend::Raw`): the texture is read
// through its plain view (the stored sRGB bytes, no decode) and the result written through the
// target's plain view (no encode), so an opaque texel lands as the bytes fs_main's decode and
// encode give back, at less cost a fragment on a software rasteriser. Only the opaque runs
// (the sky, tiles, entities, `--stress` sprites, the player) are drawn this way, and those
// carry no ghost or rival flag (src/present/instances.rs tests): the tints mix in linear light
// and stay in fs_main.
@fragment
fn fs_raw(in: VertexOut) -> @location(0) vec4<f32> {
    let texel = textureSample(atlas_texture, atlas_sampler, in.uv);
    if (in.flags & FLAG_SOLID) != 0u {
        return in.color;
    }
    if texel.a < 0.5 {
        discard;
    }
    return vec4<f32>(texel.rgb, 1.0);
}
