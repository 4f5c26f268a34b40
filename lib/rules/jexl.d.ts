declare module 'jexl' {
  const jexl: unknown;
  export default jexl;
}
