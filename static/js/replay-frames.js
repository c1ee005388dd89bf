// The replay's frames as the server packs them (game/archive/replay_data.py pack_frames): each type and its
// data keys named once; per frame a type number, seq and time as differences from the frame before,
// and the data's values in the type's key order (or, for a frame whose data has other keys, its data
// as it is). unpackFrames gives back exactly the frames the server projected.

export function unpackFrames(packed) {
  const { types, keys, type, seq: seqs, t: times, data } = packed;
  const frames = new Array(type.length);
  let seq = 0, t = 0;
  for (let i = 0; i < type.length; i++) {
    seq += seqs[i];
    t += times[i];
    let d = data[i];
    if (Array.isArray(d)) {
      const names = keys[type[i]], values = d;
      d = {};
      for (let k = 0; k < names.length; k++) d[names[k]] = values[k];
    }
    frames[i] = { seq, t, type: types[type[i]], data: d };
  }
  return frames;
}
