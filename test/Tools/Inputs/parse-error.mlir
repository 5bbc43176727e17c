// Not MLIR: a parse error.
func.func @k( {
