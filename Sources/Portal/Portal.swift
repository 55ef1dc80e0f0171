// Portal: the desktop's own file chooser, asked over D-Bus through the XDG desktop portal
// (`org.freedesktop.portal.FileChooser` on the session bus, which GNOME, KDE and others answer),
// as GTK and Qt programs ask it. The only module that talks D-Bus; it knows no window but by the
// parent handle it is given ("x11:<hex id>"), and no document but by the question it is asked.
//
// Start with `PortalFileChooser`, the `FileChooser` the window uses: it finds the session bus
// (`SessionBusAddress`), checks on a thread of its own whether a portal answers there, then asks
// each `ChooserQuestion` on that thread (SaveFile or OpenFile, subscribed first to the answer on
// the request path it predicts, `RequestPath`) and keeps the `ChooserAnswer` for the frame loop
// to take, waking it through the callback it was given. `BusConnection` is the one file that
// calls libdbus (`CDBus`); what goes over the wire is `DBusValue`s, pure and tested without a
// bus: the options and filters (`ChooserQuestion.options`, `FileFilter`), the answer's file://
// URIs (`FileURI`).
