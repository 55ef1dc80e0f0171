import Foundation
import PNGFile
import Testing
import TestSupport

/// The package's root folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The folder SwiftPM built this test bundle and the package's programs into.
let buildFolder: URL = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? bundle.path)
        .deletingLastPathComponent()
    // The bundle's executable may sit inside the .xctest folder on some layouts.
    if folder.lastPathComponent.hasSuffix(".xctest") { folder.deleteLastPathComponent() }
    return folder
}()

/// The `quicksilver` binary these tests run: $QUICKSILVER_BINARY when set, else the one SwiftPM
/// built beside this test bundle. The test target depends on the executable, so `swift test`
/// always rebuilds it first: it is never stale.
let binary: String = {
    if let path = ProcessInfo.processInfo.environment["QUICKSILVER_BINARY"], !path.isEmpty { return path }
    return buildFolder.appendingPathComponent("quicksilver").path
}()

/// The benchmarks' program (`make bench`), built beside this test bundle as `quicksilver` is.
let benchBinary = buildFolder.appendingPathComponent("quicksilver-bench").path

struct Finished {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The child's peak resident memory, in bytes (`runMeasuringMemory`; 0 otherwise).
    var peakRSS = 0
}

/// Runs a program to completion through Support/peak_rss.py, which measures its peak resident
/// memory: the child of a small process, as wait4 on a child spawned from this large test runner
/// would report the runner's own high-water mark (Linux keeps it through exec).
func runMeasuringMemory(_ path: String, _ args: [String], environment: [String: String] = [:]) throws -> Finished {
    let script = packageRoot.appendingPathComponent("Tests/EndToEndTests/Support/peak_rss.py").path
    let out = try temporaryFolder() + "/peak-rss"
    var r = try runProgram(which("python3") ?? "/usr/bin/python3", [script, out, path] + args, environment: environment)
    r.peakRSS = (Int((try? String(contentsOfFile: out, encoding: .utf8)) ?? "") ?? 0) * 1024
    return r
}

/// Runs a program to completion and captures its output.
@discardableResult
func runProgram(_ path: String, _ args: [String], environment: [String: String] = [:], timeout: Double = 300) throws -> Finished {
    let p = try Launched(path, args, environment: environment)
    // Long enough for a debug build on a loaded two-core machine: only a hang should hit it.
    return p.wait(timeout: timeout)
}

/// A child process whose output is collected into files (no pipe can fill up and block it).
///
/// Spawned with posix_spawn rather than Foundation's `Process`: on Linux, `Process.run()` in
/// Swift 6.3 over-reads a buffer while scanning /proc/self/fd and crashes now and then in a test
/// run that spawns hundreds of processes (swift-corelibs-foundation PR #5472).
final class Launched {
    let pid: pid_t
    private let out: String, err: String
    private var status: Int32?

    /// - Parameter stdin: what the child reads as standard input (a FIFO the test writes to
    ///   stands for a pipe).
    init(_ path: String, _ args: [String], environment: [String: String] = [:], stdin: String = "/dev/null") throws {
        let dir = ScratchFolder.root + "/"
        out = dir + "qs-out-\(UUID().uuidString)"
        err = dir + "qs-err-\(UUID().uuidString)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Never the user's own state folder: a session left there (a crashed `make run`) would
        // be restored into the test, and a test's sessions must not end up among the user's.
        // Nor the user's session bus: a window asks the desktop's file chooser where a portal
        // answers, and the prompt tests type into the status strip. A bus address where nothing
        // listens means no portal, as on a desktop without one (`PortalSession` gives a test one).
        let privateState = ["XDG_STATE_HOME": dir + "qs-state-\(UUID().uuidString)",
                            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(dir)no-session-bus"]
        let env = ProcessInfo.processInfo.environment.merging(privateState) { $1 }.merging(environment) { $1 }
            .map { "\($0)=\($1)" }
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings([path] + args), envp = cStrings(env)
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let rc = posix_spawn(&child, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw HarnessError("cannot start \(path): \(String(cString: strerror(rc)))") }
        pid = child
    }

    var stdout: String { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: err, encoding: .utf8)) ?? "" }

    var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        // Exit status, or the signal number for a killed process (as Foundation reports it).
        status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
        return false
    }

    /// Waits until stderr holds `text` (or `timeout` seconds pass).
    func waitForStderr(_ text: String, timeout: Double = 20) {
        eventually(timeout: timeout) { stderr.contains(text) }
    }

    /// Waits for exit, killing the process if it takes longer than `timeout` seconds.
    func wait(timeout: Double = 60) -> Finished {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning {
            kill(pid, SIGTERM)
            while isRunning { usleep(10_000) }
        }
        return Finished(status: status ?? -1, stdout: stdout, stderr: stderr)
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            while isRunning { usleep(1_000) }
        }
        unlink(out)
        unlink(err)
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass (generous: the
/// machine may be slow; a test never fails for speed alone). Returns whether it held.
@discardableResult
func eventually(timeout: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(20_000)
    }
}

/// A fresh folder of the test run's own (see `ScratchFolder`).
func temporaryFolder() throws -> String {
    try ScratchFolder.make("e2e")
}

func which(_ program: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(program)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// True when Xvfb and xdotool are installed (`make test` installs them).
let canStartXServer = which("Xvfb") != nil && which("xdotool") != nil

/// A private Xvfb server on a display number it picks itself (-displayfd), stopped on deinit.
/// `-noreset`: by default an X server resets when its last client leaves, and a client that
/// connects during the reset is refused, which would make killed-client tests flaky.
final class XServer {
    let display: String
    private let server: Launched

    init(width: Int = 1280, height: Int = 1024, extraArgs: [String] = []) throws {
        let dir = try temporaryFolder()
        let fdFile = dir + "/display"
        _ = FileManager.default.createFile(atPath: fdFile, contents: nil)
        // -displayfd writes the chosen display number to that descriptor: pass a file via sh.
        server = try Launched("/bin/sh", ["-c", "exec Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 \(width)x\(height)x24 \(extraArgs.joined(separator: " ")) 3>\(fdFile)"])
        let deadline = Date().addingTimeInterval(60)
        var number = ""
        while Date() < deadline {
            number = ((try? String(contentsOfFile: fdFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if !number.isEmpty { break }
            usleep(20_000)
        }
        guard !number.isEmpty else { throw HarnessError("Xvfb did not start: \(server.stderr)") }
        display = ":" + number
    }

    var environment: [String: String] { ["DISPLAY": display] }

    /// Runs xdotool on this display.
    @discardableResult
    func xdotool(_ args: String...) throws -> String {
        let r = try runProgram(which("xdotool") ?? "xdotool", args, environment: environment)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs the Python X helper (WM_DELETE_WINDOW, XGetImage).
    func xhelper(_ args: String...) throws {
        let script = packageRoot.appendingPathComponent("Tests/EndToEndTests/Support/xhelper.py").path
        let r = try runProgram(which("python3") ?? "/usr/bin/python3", [script] + args, environment: environment)
        if r.status != 0 { throw HarnessError("xhelper \(args): \(r.stderr)") }
    }

    /// Starts the Python X helper as a CLIPBOARD owner (`own MODE`, see xhelper.py) and returns
    /// once it holds the clipboard; it is killed when the returned process goes.
    func clipboardOwner(_ mode: String) throws -> Launched {
        let script = packageRoot.appendingPathComponent("Tests/EndToEndTests/Support/xhelper.py").path
        let owner = try Launched(which("python3") ?? "/usr/bin/python3", [script, "own", mode], environment: environment)
        eventually { owner.stdout.contains("owned") || !owner.isRunning }
        guard owner.stdout.contains("owned") else {
            throw HarnessError("xhelper own \(mode) did not take the clipboard: \(owner.stderr)")
        }
        return owner
    }

    /// Kills the server outright, as a crash would.
    func kill() {
        Foundation.kill(server.pid, SIGKILL)
        _ = server.wait(timeout: 10)
        // A killed server leaves its lock and socket; the next server must not trip on them.
        let n = display.dropFirst()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(n)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(n)")
    }

    deinit { Foundation.kill(server.pid, SIGTERM) }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A running `quicksilver window` on an X server, with helpers to drive it like a person.
final class PaintWindow {
    let x: XServer
    let process: Launched
    /// The window's X id (a Ctrl+O opens a new one: `windowReopened()`).
    private(set) var id: String
    let exportDir: String
    /// $XDG_STATE_HOME of this window: its sessions are in `sessionsFolder`.
    let stateDir: String

    /// Opens the window. Each gets its own state folder (so journals never leak between tests)
    /// unless `stateDir` names one to share, as a crash-and-restart test does.
    /// `tools`: the on-canvas tools are shown (else hidden, as Tab hides them, so that what
    /// the window shows is the canvas alone and compares with exports).
    /// `environment`: more of it (a session bus with a portal: `PortalSession.environment`).
    init(on x: XServer, size: String = "400x300", extraArgs: [String] = [], stateDir: String? = nil, stdin: String = "/dev/null",
         tools: Bool = false, environment: [String: String] = [:]) throws {
        self.x = x
        exportDir = try temporaryFolder()
        self.stateDir = try stateDir ?? temporaryFolder()
        process = try Launched(binary, ["window", "--size", size, "--export-dir", exportDir] + (tools ? [] : ["--hide-tools"]) + extraArgs,
                               environment: x.environment.merging(["XDG_STATE_HOME": self.stateDir]) { $1 }.merging(environment) { $1 },
                               stdin: stdin)
        id = ""
        id = try window()
    }

    /// The window of this process (by _NET_WM_PID; a window of one just killed may linger),
    /// other than one marked `marked` (`reopening`).
    private func window(unmarked marked: String? = nil) throws -> String {
        var found = ""
        let deadline = Date().addingTimeInterval(60)
        while found.isEmpty && Date() < deadline && process.isRunning {
            found = (try? x.xdotool("search", "--all", "--pid", "\(process.pid)", "--name", "Quicksilver"))?
                .split(separator: "\n").map(String.init).first { id in
                    guard let marked else { return true }
                    let r = try? runProgram(which("xprop") ?? "/usr/bin/xprop", ["-id", id, marked], environment: x.environment)
                    return r?.status == 0 && r?.stdout.contains("not found") == true
                } ?? ""
            if found.isEmpty { usleep(50_000) }
        }
        guard !found.isEmpty else { throw HarnessError("the window did not appear: \(process.stderr)") }
        return found
    }

    /// Does `action` (the Return of Ctrl+O's prompt), after which the same process opens a new
    /// window: found by a mark the old one has (X may give the new one the same id).
    func reopening(_ action: () throws -> Void) throws {
        let mark = "_QS_TEST_OLD"
        _ = try runProgram(which("xprop") ?? "/usr/bin/xprop", ["-id", id, "-f", mark, "8s", "-set", mark, "old"], environment: x.environment)
        try action()
        id = try window(unmarked: mark)
    }

    /// Presses button 1 at the first point, moves through the rest, releases: a real drag.
    func drag(_ points: [(Int, Int)], shift: Bool = false) throws {
        if shift { try x.xdotool("keydown", "shift") }
        try x.xdotool("mousemove", "--window", id, "\(points[0].0)", "\(points[0].1)", "mousedown", "1")
        for p in points.dropFirst() { try x.xdotool("mousemove", "--window", id, "\(p.0)", "\(p.1)") }
        try x.xdotool("mouseup", "1")
        if shift { try x.xdotool("keyup", "shift") }
    }

    /// Points every `step` pixels along a straight line.
    static func line(from a: (Int, Int), to b: (Int, Int), steps: Int = 20) -> [(Int, Int)] {
        (0...steps).map { (a.0 + (b.0 - a.0) * $0 / steps, a.1 + (b.1 - a.1) * $0 / steps) }
    }

    func key(_ k: String) throws {
        try x.xdotool("mousemove", "--window", id, "1", "1") // keys go to the window under the pointer
        try x.xdotool("key", k)
    }

    /// Types `text` as keys (XTest), into the window under the pointer.
    func type(_ text: String) throws {
        try x.xdotool("mousemove", "--window", id, "1", "1")
        try x.xdotool("type", "--delay", "5", text)
    }

    /// Ctrl+Shift+E (the screenshot export), then waits for the path on stdout and reads the PNG.
    func screenshot() throws -> (path: String, image: PNGImage) {
        let before = process.stdout.split(separator: "\n").count
        try key("ctrl+shift+e")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let lines = process.stdout.split(separator: "\n")
            if lines.count > before, let path = lines.last.map(String.init) {
                return (path, try PNGImage.read(from: path))
            }
            usleep(20_000)
        }
        throw HarnessError("no screenshot path printed; stderr: \(process.stderr)")
    }

    /// The window's pixels as the X server holds them (what a person sees).
    func grab(width: Int, height: Int) throws -> PNGImage {
        let file = try temporaryFolder() + "/grab.raw"
        try x.xhelper("grab", id, file, "\(width)", "\(height)")
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let pixels = data.dropFirst(8).withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        return PNGImage(width: width, height: height, pixels: pixels.map { $0 | 0xFF00_0000 })
    }

    /// Ctrl+Q and the exit status.
    func quit() throws -> Finished {
        try key("ctrl+q")
        return process.wait(timeout: 20)
    }
}

/// What the window shows around the canvas (Kernels' `ComposeKernel.desk`).
let deskColour: UInt32 = 0xFF3A_3D42

extension PNGImage {
    /// The top-left `width`x`height` pixels.
    func cropped(width: Int, height: Int) -> PNGImage {
        PNGImage(width: width, height: height, pixels: (0..<height).flatMap { y in pixels[(y * self.width)..<(y * self.width + width)] })
    }

    /// Darkness 0…255 of a pixel (255 − the mean of its channels).
    func ink(_ x: Int, _ y: Int) -> Int {
        let p = self[x, y]
        return 255 - (Int(p >> 16 & 0xff) + Int(p >> 8 & 0xff) + Int(p & 0xff)) / 3
    }

    /// How many pixels of column `x` within `ys` have any ink.
    func inkedRun(x: Int, ys: ClosedRange<Int>) -> Int { ys.filter { ink(x, $0) > 0 }.count }
}

/// The session journals in a state folder ($XDG_STATE_HOME), oldest first by name.
func sessionFiles(in state: String) throws -> [String] {
    let folder = state + "/quicksilver"
    return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.sorted().map { folder + "/" + $0 }
}
