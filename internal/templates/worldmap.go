package templates

// WorldMap is a world map coloured by requirement: the shapes are one
// shared asset that each place draws with <use>, so a page holds no
// geometry, only a class per place.
type WorldMap struct {
	// ViewBox is the asset's.
	ViewBox string
	// Label names the map for assistive technology.
	Label string
	// Land is the asset's group of every shape, drawn first as neutral land.
	Land string
	// Places are drawn over the land, shapes before dots.
	Places []MapPlace
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
	Title string // "Thailand: visa-free, 60 days"
	Use   string // the asset's element, "/assets/world.0123456789.svg#tha"
}

// MapKey is one entry of the legend.
type MapKey struct {
	Class string
	Label string
	N     int
	URL   string // the section listing the same places; "" for none
}
