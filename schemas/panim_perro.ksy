meta:
  id: perro_panim
  title: Perro animation clip (.panim, text)
  file-extension: [panim, pretarget]
  -binspec:
    id: panim-perro
    source: Perro documentation, page ".panim Format" (shared/seeds/003_733e721063886d99.txt)
    text-format: perro-blocks
    # The hand-written formats of formats/src/panim_perro/: clips and retarget bakes.
    register: [panim_perro::Clip, panim_perro::Retarget]
    # The tables below drive binspec_formats::panim_perro (reader, checks, evaluation) and its docs page.
    -animation-keys:
      name:
        doc: The clip's name (text).
        default: '"Animation"'
      fps:
        doc: Frames per second (a positive number).
        default: '60'
      default_interp:
        doc: The interpolation of every track until a `field.interp` control changes it.
        default: '"interpolate"'
        -aliases: [default_interpolation]
      default_ease:
        doc: The ease of every track until a `field.ease` control changes it.
        default: '"linear"'
        -aliases: [default_easing]
    -value-kinds:
      float:
        doc: A number.
        interpolates: true
      int:
        doc: A whole number.
        interpolates: true
      vec2:
        doc: A 2-tuple `(x, y)`.
        interpolates: true
      vec3:
        doc: A 3-tuple `(x, y, z)`.
        interpolates: true
      quat:
        doc: A rotation quaternion `(x, y, z, w)`, interpolated by slerp.
        interpolates: true
      color:
        doc: A colour `(r, g, b)` or `(r, g, b, a)`.
        interpolates: true
      bool:
        doc: '`true` or `false`; a step value.'
        interpolates: false
      asset:
        doc: A resource path string (or a `@variable` holding one); a step value.
        interpolates: false
    -node-fields:
      Node2D:
        doc: A 2D node.
        fields:
          position: vec2
          rotation: float
          scale: vec2
          visible: bool
          z_index: int
      Node3D:
        doc: A 3D node.
        fields:
          position: vec3
          rotation: [quat, vec3]
          scale: vec3
          visible: bool
      Sprite2D:
        doc: A 2D sprite.
        extends: Node2D
        fields:
          texture: asset
      MeshInstance3D:
        doc: A 3D mesh.
        extends: Node3D
        fields:
          mesh: asset
          material: asset
      Camera3D:
        doc: A 3D camera.
        extends: Node3D
        fields:
          zoom: float
          perspective_fovy_degrees: float
          perspective_near: float
          perspective_far: float
          orthographic_size: float
          orthographic_near: float
          orthographic_far: float
          frustum_left: float
          frustum_right: float
          frustum_bottom: float
          frustum_top: float
          frustum_near: float
          frustum_far: float
          active: bool
      Light3D:
        doc: A 3D light.
        extends: Node3D
        fields:
          color: color
          intensity: float
          cast_shadows: bool
          shadow_strength: float
          shadow_depth_bias: float
          shadow_normal_bias: float
          active: bool
      PointLight3D:
        doc: A point light.
        extends: Light3D
        fields:
          range: float
      SpotLight3D:
        doc: A spot light.
        extends: Light3D
        fields:
          range: float
          inner_angle_radians: float
          outer_angle_radians: float
      Skeleton2D:
        doc: >-
          A 2D skeleton (Transform2D bones). Bone rotation keys are rest-relative deltas in radians (rest + keyed);
          bone position and scale are absolute.
        extends: Node2D
        bone-fields:
          position: vec2
          rotation: float
          scale: vec2
      Skeleton3D:
        doc: >-
          A 3D skeleton (Transform3D bones). Bone rotation keys are rest-relative deltas, a quaternion or Euler angles
          (rest * keyed); bone position and scale are absolute.
        extends: Node3D
        bone-fields:
          position: vec3
          rotation: [quat, vec3]
          scale: vec3
    -rotation-deg:
      doc: >-
        `rotation_deg` is accepted anywhere `rotation` is (also in bone paths, `bone[0].rotation_deg`); it keys the same
        track in degrees.
      field: rotation
      alias: rotation_deg
    -bone-paths:
      doc: >-
        A skeleton's bone channels are written `bones[INDEX].CHANNEL` or `bones["NAME"].CHANNEL`; `bone` may be written
        for `bones`. Track controls work on bone channels (`bones[0].position.interp = "step"`).
      spellings: [bones, bone]
    -events:
      emit_signal:
        doc: Emits a signal. Allowed in a frame and in an `@Object` block.
        scopes: [frame, object]
        keys:
          name: required
          params: optional
      call_method:
        doc: Calls a `pub fn` script method of the object's runtime node.
        scopes: [object]
        keys:
          name: required
          params: optional
      set_var:
        doc: Sets a `pub` state field of the object's runtime node.
        scopes: [object]
        keys:
          name: required
          value: required
doc: |
  A Perro keyframe animation clip, authored as text: an `[Animation]` block (name, fps, default interpolation and
  ease), an `[Objects]` block (`Name = NodeType`), `[FrameN]` / `[FrameN?]` blocks (closed by `[/FrameN]`; `?` marks
  an open frame whose keys start from the live runtime value) holding `@Object { ... }` blocks of field keyframes,
  track controls (`field.interp`, `field.ease`) and events, and top-level `@variable = value` lines. `//` starts a
  comment. Values use the scene syntax: numbers, strings, `true`/`false`, tuples `(x, y, z)`, arrays `[a, b]`,
  objects `{ k = v, ... }` and references `@Name` / `@Object.field`.

  This is a text format: Kaitai Struct cannot describe it, so there is no `seq`. binspec's reader and writer are
  hand-written (`binspec_formats::panim_perro`) and take from this file, through `meta: -binspec:` and the enums, the
  node types and their animatable fields, the interpolation and ease names with their aliases, the `[Animation]`
  keys and the events. The page `generated/docs/panim_perro.md` is generated from it.

  Where the source page leaves a choice open, binspec decides as follows (the page is the authority where it speaks):
  * A node type has the fields of the type it `extends` as well as its own (the page animates a Camera3D's
    `position`, and a Camera3D is a Node3D).
  * Track controls are applied in the order the file is written, across frames: a control line sets the
    interpolation or ease of the keys of that track that come after it, and nothing resets them between frames.
  * The segment between two keys of a track is shaped by the interpolation and ease of the key it starts from.
  * The ease curves are quadratic: `ease_in` is t², `ease_out` is 1 - (1 - t)², `ease_in_out` is 2t² up to
    t = 0.5 and 1 - (2 - 2t)² / 2 after it.
  * Before a track's first key its value is the first key's, after the last key the last key's. Keys of an open
    frame are runtime values: a segment that starts at one, or ends at one (unless the key it starts from steps),
    has no deterministic value. A 4-tuple is slerped on a rotation channel only (a colour may be a 4-tuple too).
  * `rotation` and `rotation_deg` key one track (rotation_deg in degrees, converted to radians to sample it);
    `bones[i]` and `bone[i]` name the same bone.
  * The `?` marks a whole block open, so one frame may have an open `[FrameN?]` block and a closed `[FrameN]` block
    (or several of each), keying different tracks; a track keyed twice at one frame, in one block or two, is an
    error at its second key.
doc-ref: Perro documentation, page ".panim Format" (shared/seeds/003_733e721063886d99.txt)
enums:
  interp:
    0:
      id: step
      doc: Hold the previous key's value until the next key.
    1:
      id: interpolate
      doc: Blend across the key interval (lerp for numbers and vectors, slerp for rotation quaternions).
      -aliases: [linear, lerp, slerp]
  ease:
    0:
      id: linear
      doc: Constant rate.
    1:
      id: ease_in
      doc: Slow start.
      -aliases: [easein, in]
    2:
      id: ease_out
      doc: Slow end.
      -aliases: [easeout, out]
    3:
      id: ease_in_out
      doc: Slow start and slow end.
      -aliases: [easeinout, in_out]
