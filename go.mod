module github.com/twofold-chess/twofold

go 1.26.8

require github.com/stretchr/testify v1.12.1

require (
	github.com/spf13/pflag v1.0.10 // indirect
	github.com/yalue/onnxruntime_go v1.27.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
