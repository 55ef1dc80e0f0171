/// What a document may hold, in one place: the window, the journal, the replay format's parser
/// and OpenRaster reading all check against these, so that whatever the window can make, a
/// replay of it can play, and whatever a file declares is refused before anything is allocated.
///
/// The budget of an opened document is `pixelBytes`: the layers' pixels as their files declare
/// them (a PNG's header says its width and height before a pixel is decoded), checked before any
/// is. The rest bound what a file may make the reader hold besides: the file itself and the
/// archive entries it inflates (`fileBytes` each), stack.xml (`stackXMLBytes`), and each name and
/// attribute it keeps (`nameBytes`, `attributeBytes`). Opening a document so holds at most the
/// file and its entries while they are read, then the entries (compressed) and the layers'
/// pixels, and one layer's decoded picture at a time beside them: about 2 + 2 + 4 + 1 GiB at
/// worst, whatever the file claims. The window's own copy of the layers (its tiles) is the
/// session's, beside these.
public enum DocumentLimits {
    /// A frame's width and height (the part of the canvas a document exports), in pixels: what
    /// a replay's header, `resize` and `frame` take, and what fitting the frame to the ink may make.
    public static let frameSides = 1...16384

    /// Layers in a document. A new layer past it is not made (the window says so); a replay's
    /// `select` index and a file's layer count are checked against it. A file this program wrote
    /// holds one more: the background, saved as its bottom layer.
    public static let maxLayers = 4096

    /// How many groups may hold a layer, one inside another. A group or a move into one that
    /// would go deeper is not made; a file with stacks nested deeper is refused. 64: far beyond a
    /// drawing's, and the compose's recursion through nested groups stays shallow.
    public static let maxDepth = 64

    /// The most bytes a document's layers may take, decoded, all told: the sum over its layers
    /// of width × height × 4 as their files declare them. 4 GiB: four layers of 16384x16384,
    /// the largest canvas, each filled. A file over it is refused before any layer is decoded.
    /// (The background layer this program saves is not decoded, and not counted: its colour is
    /// an attribute.)
    public static let pixelBytes = 1 << 32

    /// The most bytes of a document's file read into memory (an .ora, a picture), and, all told,
    /// of what an .ora's entries inflate to (stack.xml and the layers' PNGs, compressed still).
    /// 2 GiB: more than a 16384x16384 picture of 8-bit RGBA stored uncompressed.
    public static let fileBytes = 1 << 31

    /// The most bytes of stack.xml, the text of an .ora's layer stack. 16 MiB: 4097 layers with
    /// the longest names, every character escaped, and room to spare.
    public static let stackXMLBytes = 16 << 20

    /// A layer's name, in UTF-8 bytes: what the replay format's `set name` takes (1…1024). A
    /// longer name from a file is cut to its first 1024 bytes (whole characters), and that is
    /// said: the document still opens, and its names stay what a replay could set.
    public static let nameBytes = 1024

    /// An attribute of a layer or of the document kept from a file (another program's: Krita's,
    /// MyPaint's) and written back, in UTF-8 bytes. A longer one is left out, and that is said.
    public static let attributeBytes = 4096
}
