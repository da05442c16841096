package entrycheck

// The words of the home page's live check, where they differ from an
// answer's. The embeddable checker says the same in every language: its
// words are the catalogs' widget.* messages (widget.hint,
// widget.did_you_mean).

// LiveCheckNotice says what a live check costs, where one is offered and
// before it is made: the static pages answer for free, a check made live
// counts against the visitor's free checks of the day.
const LiveCheckNotice = "A live check counts as one of your free checks for today."

// DidYouMean asks whether a country was meant, when what was typed names
// none: {country} stands for the country's name ("Did you mean Germany?").
const DidYouMean = "Did you mean {country}?"
