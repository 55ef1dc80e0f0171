// Geometry: the pixel arithmetic every other module shares. `Size` is a width and height;
// `Rect` a half-open integer rectangle, the damage currency of the whole program (what a stroke
// touched, what a frame must compose and present).
