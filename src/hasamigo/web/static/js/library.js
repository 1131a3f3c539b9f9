// The library: downloads of this browser's games carry their seat tokens.
import { wireDownloads } from "./api.js";

wireDownloads(document);
