// Package faultpoint marks the places where a crash loses the most, so
// that a test can crash the service exactly there. In a normal build Reach
// does nothing and costs nothing; a binary built with -tags faultinject
// kills itself with SIGKILL, as a power cut or the OOM killer would, when
// it reaches the point named by the environment variable ENTRYCHECK_FAULT.
package faultpoint

// AfterSettlement is reached once a payment is settled and its receipts
// recorded, before the paid answer is written.
const AfterSettlement = "after-settlement"
