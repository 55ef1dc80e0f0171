/// Where the portal will publish the answer to a call: the Request object
/// `/org/freedesktop/portal/desktop/request/SENDER/TOKEN`, SENDER the caller's unique bus name
/// without its ':' and with '.' made '_', TOKEN the `handle_token` the call passed. Known before
/// the call, so the answer can be subscribed to first (as the portal's documentation asks: a fast
/// answer could otherwise come before the subscription).
public enum RequestPath {
    /// The request object path for `uniqueName` (":1.42") and `token`.
    public static func predicted(uniqueName: String, token: String) -> String {
        let sender = String(uniqueName.drop(while: { $0 == ":" }).map { $0 == "." ? "_" : $0 })
        return "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
    }

    /// A `handle_token` for the `count`th call: letters, digits and '_' only, as an object path's
    /// element must be.
    public static func token(_ count: Int) -> String { "quicksilver\(count)" }
}
