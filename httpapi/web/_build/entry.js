// The entry of the vendor bundle: markdown-it's constructor, as one ES
// module. The page configures it in ../markdown.js.
export { default } from "markdown-it";
