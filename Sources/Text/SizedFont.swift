import CText

/// FreeType itself: the library faces are opened in. Each `SizedFont` holds it, so it is done
/// with only after its last face.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(TextError) {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else { throw .freeTypeUnavailable(code: error) }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}

/// A glyph as HarfBuzz placed it: which glyph of which font, and where its origin lies from the
/// run's start on the baseline, in 26.6 pixels (y up, as fonts measure).
struct ShapedGlyph: Equatable {
    let font: Int
    let glyph: UInt32
    let cluster: Int
    let x: Fixed26_6
    let y: Fixed26_6
}

/// One font at one pixel size: a FreeType face set to the size, and the HarfBuzz font made from
/// it. Shapes items into glyphs with the outlines' own advances (unhinted: a string twice the
/// size is twice as wide), and draws each glyph hinted by the font's own instructions (FreeType's
/// auto-hinter for a font that has none), stems and heights fitted to whole pixels, so small text
/// is crisp. The engine puts each glyph at the whole pixel nearest its exact place.
///
/// One thread: the face, the HarfBuzz font and its buffer are C objects that are not Sendable.
final class SizedFont {
    private let library: FreeTypeLibrary
    private let face: FT_Face
    /// hb_font_t, holding its own reference to the face.
    private let font: OpaquePointer
    /// hb_buffer_t, reused by each shaping.
    private let buffer: OpaquePointer
    /// The size in 26.6 pixels.
    let size: Fixed26_6
    /// The face's line at this size (26.6; FreeType rounds them to whole pixels).
    let ascender: Fixed26_6, descender: Fixed26_6, height: Fixed26_6

    /// Drawing: hinted as the font says, from the outline even where the font also has bitmaps
    /// (a CJK font's 1-bit strikes would look unlike everything else).
    private static let drawFlags = Int32(FT_LOAD_DEFAULT) | Int32(FT_LOAD_NO_BITMAP)
    /// Shaping: the advances of the unhinted outline.
    private static let shapeFlags = Int32(FT_LOAD_NO_HINTING)

    /// Opens face `index` of the font file at `path`, at `size` 26.6 pixels.
    init(library: FreeTypeLibrary, path: String, index: Int, size: Fixed26_6) throws(TextError) {
        var opened: FT_Face?
        var error = FT_New_Face(library.handle, path, FT_Long(index), &opened)
        guard error == 0, let face = opened else { throw .cannotOpen(path: path, index: index, code: error) }
        error = FT_Set_Char_Size(face, 0, FT_F26Dot6(size), 72, 72)
        guard error == 0, let font = hb_ft_font_create_referenced(face), let buffer = hb_buffer_create() else {
            FT_Done_Face(face)
            throw .cannotOpen(path: path, index: index, code: error)
        }
        hb_ft_font_set_load_flags(font, Self.shapeFlags)
        let metrics = face.pointee.size.pointee.metrics
        self.library = library
        self.face = face
        self.font = font
        self.buffer = buffer
        self.size = size
        ascender = Int(metrics.ascender)
        descender = Int(metrics.descender)
        height = Int(metrics.height)
    }

    deinit {
        hb_buffer_destroy(buffer)
        hb_font_destroy(font)
        FT_Done_Face(face)
    }

    /// Shapes `item` of `utf8` (the whole string, so HarfBuzz sees the context on both sides)
    /// with its pen starting at `pen`; appends the glyphs as font `fontIndex` and returns the pen
    /// after them.
    func shape(_ utf8: UnsafeBufferPointer<UInt8>, _ item: TextItem, fontIndex: Int, pen: Fixed26_6,
               into glyphs: inout [ShapedGlyph]) -> Fixed26_6 {
        hb_buffer_clear_contents(buffer)
        utf8.withMemoryRebound(to: CChar.self) { text in
            hb_buffer_add_utf8(buffer, text.baseAddress, Int32(text.count), UInt32(item.start), Int32(item.length))
        }
        var direction = hb_script_get_horizontal_direction(item.script)
        if direction == HB_DIRECTION_INVALID { direction = HB_DIRECTION_LTR }
        hb_buffer_set_direction(buffer, direction)
        hb_buffer_set_script(buffer, item.script)
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return pen
        }
        var x = pen, y: Fixed26_6 = 0
        for i in 0..<Int(count) {
            let p = positions[i]
            glyphs.append(ShapedGlyph(font: fontIndex, glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                                      x: x + Int(p.x_offset), y: y + Int(p.y_offset)))
            x += Int(p.x_advance)
            y += Int(p.y_advance)
        }
        return x
    }

    /// Glyph `glyph`'s coverage, its origin at a pixel's corner; empty when FreeType cannot draw
    /// it (or it has no pixels).
    func rasterise(_ glyph: UInt32) -> GlyphImage {
        guard FT_Load_Glyph(face, glyph, Self.drawFlags) == 0, let slot = face.pointee.glyph else { return .empty }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return .empty }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), width > 0, height > 0, let bytes = bitmap.buffer else {
            return .empty
        }
        var coverage = [UInt8](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                // A negative pitch stores the rows bottom first.
                let from = bytes + (pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch)
                for col in 0..<width { out[row * width + col] = from[col] }
            }
        }
        return GlyphImage(width: width, height: height, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                          coverage: coverage)
    }
}
