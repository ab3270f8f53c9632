// RUN: nothing here

// only comments
