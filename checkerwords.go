package entrycheck

// The words of the forms a traveller types countries into, where they
// differ from an answer's: the home page's live check and the embeddable
// checker (which receives them when it is bundled) say the same.

// LiveCheckNotice says what a live check costs, where one is offered and
// before it is made: the static pages answer for free, a check made live
// counts against the visitor's free checks of the day.
const LiveCheckNotice = "A live check counts as one of your free checks for today."

// DidYouMean asks whether a country was meant, when what was typed names
// none: {country} stands for the country's name ("Did you mean Germany?").
const DidYouMean = "Did you mean {country}?"
