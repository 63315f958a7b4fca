import type { ModelData } from "../model-data";
import alibaba from "./alibaba";
import blackForestLabs from "./black-forest-labs";
import bytedance from "./bytedance";
import cloudflare from "./cloudflare";
import darkroom from "./darkroom";
import google from "./google";
import kling from "./kling";
import minimax from "./minimax";
import openai from "./openai";
import runway from "./runway";
import ideogram from "./ideogram";
import recraft from "./recraft";
import stability from "./stability";
import hidream from "./hidream";
import luma from "./luma";
import videoHosted from "./video-hosted";

// Every data file, in library order: the built-ins first. A new vendor's file is added here.
export const catalogData: readonly ModelData[] = [
  ...darkroom,
  ...blackForestLabs,
  ...openai,
  ...google,
  ...kling,
  ...minimax,
  ...runway,
  ...cloudflare,
  ...alibaba,
  ...bytedance,
  ...ideogram,
  ...recraft,
  ...stability,
  ...hidream,
  ...luma,
  ...videoHosted,
];
