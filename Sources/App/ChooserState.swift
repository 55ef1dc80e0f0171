/// Whether a file's name is asked through the desktop's chooser, as the router sees it.
public enum ChooserState: Sendable, Equatable {
    /// No chooser answers (none was made, `QUICKSILVER_PORTAL=0`, or no portal is there): the
    /// status strip asks (`NameEntry`).
    case absent
    /// Ctrl+S and the rest ask the chooser.
    case ready
    /// Its dialog is open: another Ctrl+S does not open a second one.
    case open
}
