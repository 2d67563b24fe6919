package sandbox

// windowsNames is true where `\` and `:` separate names or volumes, so they are refused in a
// sandbox name.
const windowsNames = true
