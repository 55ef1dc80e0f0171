import Portal
import Testing

/// The file:// URIs a chooser answers with, as paths.
struct FileURITests {
    @Test func percentEscapesAreUTF8Bytes() {
        #expect(FileURI.path("file:///home/a/my%20drawing.ora") == "/home/a/my drawing.ora")
        #expect(FileURI.path("file:///tmp/%C3%A9t%C3%A9/%E7%8C%AB.png") == "/tmp/été/猫.png")
        #expect(FileURI.path("file:///tmp/100%25.ora") == "/tmp/100%.ora")
        #expect(FileURI.path("file:///tmp/a%2fb") == "/tmp/a/b")
    }

    @Test func thisHostOnly() {
        #expect(FileURI.path("file://localhost/tmp/x.ora") == "/tmp/x.ora")
        #expect(FileURI.path("FILE:///tmp/x.ora") == "/tmp/x.ora")
        #expect(FileURI.path("file:/tmp/x.ora") == "/tmp/x.ora")
        #expect(FileURI.path("file://otherhost/tmp/x.ora") == nil)
        #expect(FileURI.path("sftp://host/tmp/x.ora") == nil)
        #expect(FileURI.path("file://relative") == nil)
    }

    @Test func malformedEscapesAreRefused() {
        #expect(FileURI.path("file:///tmp/%zz.ora") == nil)
        #expect(FileURI.path("file:///tmp/%4") == nil)
        #expect(FileURI.path("file:///tmp/%00.ora") == nil, "no path holds a NUL")
        #expect(FileURI.path("file:///tmp/%ff%fe.ora") == nil, "not UTF-8")
    }

    @Test func queryAndFragmentAreNotThePath() {
        #expect(FileURI.path("file:///tmp/x.ora?a=1#b") == "/tmp/x.ora")
        #expect(FileURI.path("file:///tmp/x%3F.ora") == "/tmp/x?.ora")
    }
}
