// Replaced by the lifetime analysis.
