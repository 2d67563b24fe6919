package email

// Bind is the baseline of the tool's Bind: allocate the arguments, then decode and validate
// them with the decoder generated before the decoders were made compact.
func Bind(data []byte) (any, error) {
	v := new(SendEmailArgs)
	if err := toolgenDecodeArgsSendEmailArgs(data, v); err != nil {
		return nil, err
	}
	return v, nil
}
