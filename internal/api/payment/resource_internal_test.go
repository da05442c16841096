package payment

import "testing"

func TestSameResource(t *testing.T) {
	const offered = "https://entrycheck.example/v1/check?passport=DEU&destination=THA&visas_of=USA"
	for _, c := range []struct {
		paid string
		same bool
	}{
		{offered, true},
		{"https://entrycheck.example/v1/check?destination=THA&visas_of=USA&passport=DEU", true},
		{"https://entrycheck.example/v1/check?passport=deu&destination=Tha&visas_of=usa", true},
		{"HTTPS://EntryCheck.example/v1/check?visas_of=USA&destination=tha&passport=DEU", true},
		{"https://entrycheck.example/v1/check?passport=DEU&destination=FRA&visas_of=USA", false},
		{"https://entrycheck.example/v1/check?passport=DEU&destination=THA", false},
		{"https://entrycheck.example/v1/check?passport=DEU&destination=THA&visas_of=USA&visas_of=USA", false},
		{"https://entrycheck.example/v1/passport/DEU?passport=DEU&destination=THA&visas_of=USA", false},
		{"https://other.example/v1/check?passport=DEU&destination=THA&visas_of=USA", false},
		{"http://entrycheck.example/v1/check?passport=DEU&destination=THA&visas_of=USA", false},
		{"https://entrycheck.example/v1/check?passport=DEU&destination=THA&visas_of=USA&purpose=Business", false},
	} {
		if got := SameResource(c.paid, offered); got != c.same {
			t.Errorf("%s: same %v, want %v", c.paid, got, c.same)
		}
	}
	// Only country codes are read in any case.
	if SameResource("https://e.example/v1/check?purpose=business", "https://e.example/v1/check?purpose=BUSINESS") {
		t.Errorf("purpose compared without case")
	}
}
