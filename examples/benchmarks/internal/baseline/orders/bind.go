package orders

// Bind is the baseline of the tool's Bind: allocate the arguments, then decode and validate
// them with the decoder generated before the decoders were made compact.
func Bind(data []byte) (any, error) {
	v := new(CreateOrderArgs)
	if err := toolgenDecodeArgsCreateOrderArgs(data, v); err != nil {
		return nil, err
	}
	return v, nil
}
