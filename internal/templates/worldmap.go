package templates

// WorldMap is a world map coloured by requirement: the shapes are one
// shared asset that each place draws with <use>, so a page holds no
// geometry, only a fill per place.
type WorldMap struct {
	// ViewBox is the asset's.
	ViewBox string
	// Label names the map for assistive technology.
	Label string
	// Land is the asset's group of the shapes no place covers, drawn
	// first as neutral land.
	Land string
	// Patterns are the fills of the whole map and the legend: one per
	// requirement present, each a colour and its pattern.
	Patterns []MapPattern
	// Places are drawn over the land in the order of their countries'
	// names, which is the order keyboard focus visits them.
	Places []MapPlace
	// Dots are the places drawn as dots again, above every shape: in name
	// order a dot can come before the neighbour that covers it. They take
	// no focus and are hidden from assistive technology, which reach each
	// place once in Places.
	Dots []MapPlace
	// Insets draw dense regions again, larger, for pointers and fingers.
	Insets []MapInset
	// Legend has an entry per requirement present, then the own country.
	Legend []MapKey
	// Unplaced are the places with neither a shape nor a dot.
	Unplaced []MapPlace
	// Text says where the same information stands as text.
	Text string
}

// MapPlace is one country on the map.
type MapPlace struct {
	URL   string // the page it links to
	Class string // "m-visa-free", "m-own"
	Fill  string // its pattern, "url(#p-visa-free)"
	Title string // "Thailand: visa-free, 60 days"
	Use   string // the asset's element, "/assets/world.0123456789.svg#tha"
}

// MapPattern is the fill of one requirement at one scale: its colour
// under a pattern (Slug names both), the tile scaled by Scale ("" for 1).
type MapPattern struct {
	ID    string // "p-eta", "p-eta-europe"
	Slug  string // "eta", "own"
	Scale string // "0.31"
}

// MapInset is a region drawn again at a larger scale: the asset seen
// through ViewBox, its places filled with their own Patterns, whose tiles
// are scaled to look the same size as the whole map's.
type MapInset struct {
	Name     string
	ViewBox  string
	Patterns []MapPattern
	Places   []MapPlace
}

// MapKey is one entry of the legend.
type MapKey struct {
	Class string
	Fill  string // the pattern the map fills its places with
	Label string
	N     int
	URL   string // the section listing the same places; "" for none
}
