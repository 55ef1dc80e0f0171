import Portal
import Testing

/// The options and filters a question is sent with, as D-Bus values and their signatures.
struct ChooserQuestionTests {
    let ora = FileFilter("OpenRaster", [.glob("*.ora"), .mime("image/openraster")])
    let png = FileFilter("PNG", [.glob("*.png")])

    @Test func aFilterIsSAUS() {
        #expect(ora.value.signature == "(sa(us))")
        #expect(ora.value == .structure([.string("OpenRaster"), .array(element: "(us)", [
            .structure([.uint32(0), .string("*.ora")]), .structure([.uint32(1), .string("image/openraster")]),
        ])]))
        #expect(FileFilter("none", []).value.signature == "(sa(us))", "an empty array keeps its type")
    }

    @Test func saveOptions() {
        let q = ChooserQuestion(.save, title: "Save", folder: "/home/a/Pictures", name: "untitled.ora", filters: [ora, png])
        #expect(q.method == "SaveFile")
        let o = q.options(token: "quicksilver7")
        #expect(o.signature == "a{sv}")
        #expect(o["handle_token"] == .string("quicksilver7"))
        #expect(o["current_name"] == .string("untitled.ora"))
        #expect(o["current_folder"] == .bytes(Array("/home/a/Pictures".utf8) + [0]), "NUL-terminated bytes")
        #expect(o["filters"]?.signature == "a(sa(us))")
        #expect(o["filters"] == .array(element: "(sa(us))", [ora.value, png.value]))
        #expect(o["current_filter"] == ora.value)
        #expect(o["modal"] == .bool(true))
        #expect(o["multiple"] == nil)
    }

    @Test func openOptionsAskForOneFileAndNoName() {
        let q = ChooserQuestion(.open, title: "Open", folder: "/tmp", name: "ignored", filters: [])
        #expect(q.method == "OpenFile")
        let o = q.options(token: "t")
        #expect(o["multiple"] == .bool(false))
        #expect(o["directory"] == .bool(false))
        #expect(o["current_name"] == nil)
        #expect(o["filters"] == nil)
        #expect(o["current_folder"] == .bytes(Array("/tmp".utf8) + [0]))
    }

    @Test func signatures() {
        #expect(DBusValue.variant(.string("x")).signature == "v")
        #expect(DBusValue.strings([]).signature == "as")
        #expect(DBusValue.dictEntry(.string("k"), .variant(.uint32(1))).signature == "{sv}")
        #expect(DBusValue.structure([.int64(1), .uint64(2), .double(3), .objectPath("/"), .signature("s"), .int32(4), .byte(5)]).signature
            == "(xtdogiy)")
    }
}
