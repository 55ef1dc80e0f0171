import Geometry
import Testing
@testable import X11Window

/// What opening a window that cannot be opened says, and its kind. No X server.
@Suite struct X11ErrorTests {
    /// No server listens on display 987: XOpenDisplay fails at once (a local socket that is not there).
    @Test func aDisplayWithNoServerCannotBeOpened() {
        let error = #expect(throws: X11Error.self) { _ = try X11Window(display: ":987", size: Size(width: 8, height: 8), title: "t") }
        #expect(error == X11Error(.cannotOpenDisplay, "cannot open display \":987\""))
    }

    /// No name and no $DISPLAY (XDisplayName gives ""): nothing was named, which the caller can say.
    @Test func noDisplayNamedIsNoDisplay() {
        #expect(X11Error.cannotOpenDisplay("") == X11Error(.noDisplay, "cannot open display (DISPLAY is not set)"))
    }
}
