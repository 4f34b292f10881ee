package onnx

// LibraryName is the ONNX Runtime shared library's file name on this OS,
// as the onnxruntime releases (and the onnxruntime-node package) name it.
const LibraryName = "onnxruntime.dll"
