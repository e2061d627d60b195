/** A `.wasm` import is a compiled module: workerd's config declares it so, and the test pool's default rules do too. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
