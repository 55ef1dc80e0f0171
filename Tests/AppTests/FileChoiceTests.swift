@testable import App
import Files
import Foundation
import Portal
import Testing
import TestSupport

/// The desktop chooser's question for each key, and what each answer does (pure).
struct FileChoiceTests {
    let files = PathLookup(home: "/home/a", currentFolder: "/work", isFile: { $0 == "/home/a/taken.ora" }, isFolder: { _ in true },
                           names: { _ in [] })

    @Test func aNewDocumentIsSavedAsTheStripWouldSuggest() {
        let names = DocumentNames(folder: "/home/a/Pictures", files: files)
        let q = FileChoice.question(for: .save, names: names)
        #expect(q.kind == .save && q.title == "Save drawing")
        #expect(q.folder == "/home/a/Pictures" && q.name == "untitled.ora")
        #expect(q.filters == [FileChoice.openRaster, FileChoice.png])
        #expect(FileChoice.question(for: .saveAs, names: names).title == "Save drawing as")
    }

    @Test func aPNGDocumentOffersPNGFirst() {
        let q = FileChoice.question(for: .saveAs, names: DocumentNames(path: "/home/a/sky.png", folder: "/x", files: files))
        #expect(q.folder == "/home/a" && q.name == "sky.png")
        #expect(q.filters.first == FileChoice.png)
    }

    @Test func openStartsInTheDocumentsFolder() {
        let q = FileChoice.question(for: .open, names: DocumentNames(path: "/home/a/art/x.ora", folder: "/x", files: files))
        #expect(q.kind == .open && q.folder == "/home/a/art" && q.name == nil)
        #expect(FileChoice.question(for: .open, names: DocumentNames(folder: "~/Pictures", files: files)).folder == "/home/a/Pictures")
    }

    @Test func aChosenNameSavesOrOpensAsTheStripsReturnWould() {
        #expect(FileChoice.outcome(of: .chosen(["/tmp/a.ora"], filter: nil), for: .saveAs, files: files) == .request(.save(to: "/tmp/a.ora")))
        #expect(FileChoice.outcome(of: .chosen(["/tmp/a.PNG"], filter: nil), for: .save, files: files) == .request(.save(to: "/tmp/a.PNG")))
        #expect(FileChoice.outcome(of: .chosen(["/tmp/b.jsonl"], filter: nil), for: .open, files: files) == .request(.open("/tmp/b.jsonl")))
        #expect(FileChoice.outcome(of: .chosen(["/home/a/taken.ora"], filter: nil), for: .saveAs, files: files)
            == .request(.save(to: "/home/a/taken.ora")), "the chooser asked before replacing: not asked twice")
    }

    @Test func aNameWithoutAnExtensionGetsTheChosenFilters() {
        #expect(FileChoice.outcome(of: .chosen(["/tmp/a"], filter: FileChoice.openRaster.name), for: .saveAs, files: files)
            == .request(.save(to: "/tmp/a.ora")))
        #expect(FileChoice.outcome(of: .chosen(["/tmp/a.txt"], filter: FileChoice.png.name), for: .saveAs, files: files)
            == .request(.save(to: "/tmp/a.txt.png")))
        #expect(FileChoice.outcome(of: .chosen(["/tmp/a"], filter: nil), for: .save, files: files) == .request(.save(to: "/tmp/a.ora")))
        #expect(FileChoice.outcome(of: .chosen(["/home/a/taken"], filter: nil), for: .save, files: files)
            == .askInStrip(suggestion: "~/taken.ora", said: nil), "a file the chooser did not ask about: the strip asks")
    }

    @Test func cancelledDoesNothingAndNoChooserFallsBackToTheStrip() {
        #expect(FileChoice.outcome(of: .cancelled, for: .saveAs, files: files) == .say("nothing saved"))
        #expect(FileChoice.outcome(of: .cancelled, for: .open, files: files) == .say("nothing opened"))
        #expect(FileChoice.outcome(of: .ended, for: .save, files: files) == .say("nothing saved"), "GTK's Escape")
        #expect(FileChoice.outcome(of: .unavailable(PortalError(.noBus, "none")), for: .open, files: files)
            == .askInStrip(suggestion: nil, said: nil))
        #expect(FileChoice.outcome(of: .failed(PortalError(.callFailed, "could not")), for: .save, files: files)
            == .askInStrip(suggestion: nil, said: "the file chooser failed: could not"))
    }
}
