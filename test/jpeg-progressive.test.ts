// Progressive JPEG (layerQuality/jpegProgressive.ts through jpeg.ts): a progressive file carries the same quantised
// coefficients as the baseline file libjpeg makes from the same image and quality, so it must decode to the same pixels
// at every scale, with and without a block mask. The fixtures were made with libjpeg-turbo's cjpeg from small test
// images (text-like bars with noise): 'cjpeg -quality 75' and '-progressive' (gray 48 × 40); a scan script with
// successive approximation of the DC and AC bands ('0: 0 0 0 1; 0: 1 63 0 2; 0: 0 0 1 0; 0: 1 63 2 1; 0: 1 63 1 0;')
// and '-restart 1'; colour 40 × 24 at '-quality 60', baseline and by a twelve-scan script with interleaved DC
// refinement, chroma bands and '-restart 2'; and a progressive file whose luminance is subsampled
// ('-sample 1x1,2x2,2x2'), which is refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJpegDc, decodeJpegGray, jpegWorkBytes } from '../src/analyzer/layerQuality/jpeg';
import { prng } from '../scripts/fuzz';

const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));
const tgBase = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAAoADABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/AO0+HHhPUvCPhyex1OW1klkvWlLwMxUKyIMHKg8bewHFY2r5+IPjmzGkf6OfCepbb1rolQxMik+VsLZ/1Lfe29R9B2ninxZYeENOg1G/iupYGmFv/ou1nEhDN0JGfun/AANY3w18K3Hg/QZ7HUZLJ55bprlHgkZlAKIOcheflPHt15rH1Lb8QfHGnw6PI8P/AAimp4vxefKZcyDiIruBz9nf723r9cdb4t8XWPg3SIb29WeSGSVbfEUYJ3kMf4iOMA+v0qt4/wBeudN8P3UOj3S/8JCwja0hi2STOpkAJEZBJXAck4OMH8GeFdEsPD+iDWrqJ7PUNQt47rUpZWK5k2FnZkbhMMzkgAY9BisBYH8ceONQ07Von1TwbHbpd2MqKRA0w2AlZoxliC0oI3EdRjjNdD471u40jwzNb6NdRf286I1rZoiyTsPMAZlibJI2q/bjBPal8K6RY6J4fOsSwfYtQv7aG61WS4dkJlwWcsOiYZ3JAAwM8DAxzskMvjv4iajpmqRSal4RjgW4sGjjxA04EakpOgG/BaYfeI4ORxTPCg/4WF4ltfHjodObTy9g1iR53mnY53bwQRzN02/wnnnA2/H+v/YTpnh423mP4kMtgLjeV+zglEL7cfNgybiuV6da2PCmgt4b8L2ej/aVufsvmkziAJu3OzH5ST/eI6+hrjPCEi/EXxRaeO0VLL+zmawaw/1vnHy2JYSHbt/1xGNp+71542PH3iBtPh0zwz9lyPEiSWIu2fBt9xVN2O/+tBxkdOozmtvwnoH/AAifhez0aS5Ey2zP+/EOwHc5fG3Jx94DGe3rmnyTaB4M0Oa8a2g0vTY2XzGtYMAFiADtQZJyR27CuV8I6VdX+s6xq2uwre2Et2l3oc1zIsvkxMzsGhViTCMGI4wp4HQrxW8f6lf6zAPDnhK+ujrlrKs93BaTNAyw+XgkuSq4JdOASeRxxx2cs2heCtDnu/Kh03S4yr3C2tuFAZyEDFUGcn5RwOgHauV8GaPqeqa1rer63ELywluVutDlu5Vm8mNmdwyA5MWV8rjCnhRjg4i+IOpXmpBPDXhXULn/AISG0njurmK1laEiHYTnzGKqRmSPIDfxDjg1J41vH1zxrYeArjyV0vVLQTTyQA+eChdwqnJUDMS/wnqfYjqb0nwz4LmaxbeNM01xCLjlf3UZC78YyTtx0A54xXNfDmwj10L4/uGaLVtUjeCSGIYgj2OEXaCC2SIhnLHnNQ+ML6XWvGtj8PpjCmk6raedPNGc3O5WkcbWPy4zEo5XufXjrNQP/CK+Crr7FGsq6Tp7+UJ+c+XEdu/G3OQozgjP61znw8srbXCfH9wXGoanC1vcRIAtuoWQICgwWziJRyxHJ9q//9k=',
);
const tgProg = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wgALCAAoADABAREA/8QAGAABAQEBAQAAAAAAAAAAAAAABQQCAQP/2gAIAQEAAAABaiajjW88wIdOzdYLZd0rzZKzpQ3Cxv8A/8QAIBAAAgICAgIDAAAAAAAAAAAAAwQBAgAFFCUTJBESFf/aAAgBAQABBQLXKEUXL2DzTdFB61WyYCdg823RMT57DXVDRcPxznnjWEsqKgV5iXtir2DL5/pioOMqpP6LT7HjhQHEVmQJgUFa5nyXNEyBICYSFNsCXJjt/O7f1ktdSD45eTOk9VLX0qfP/8QAMhAAAQMCAwUGBAcAAAAAAAAAAQIDEQASBBMhFCIxQVEyM2FxgfAFQlKRJDRDksHR4f/aAAgBAQAGPwIocKSSudKRlbuyOb93ny+1BxYURNu71oocKJKrtDTYZMbK5v389eX7aC1yQTboKUGVfiNLQNTx6VnKFjjiQpwnrTjbozcGE3IPKfMetFLKhn/KjiePSs4ixxaQp0q60426C5hALkQNJ05/ek4/u8vcs4z7mm8PbO0yi76fc0hm662dYpOO7GXuWcZ06+tN4a38zKLvp9zSGSqbecUV2hpscbRTzr4vQVXMFRmB4dOVbPhFqz0mVBJjSKKoDbQ7VqaedeF6Cq5gqMwP45Vs2FcVtCSFKCTGnn6ikYBUZTqZJHH3pRs/Tb0u8BW3q0ddEEDgPcUj4eYynUySO1z/AKpVgnKb0nwFbervHBaofLx/yv/EACIQAQABBAICAwEBAAAAAAAAAAERACExQVFhcYGRocGx0f/aAAgBAQABPyFv0JNiEOuq8RKtmzSeeYpNV1VyfynOGhZMHjioonXvQnlmKHwp2L80a2Uoyn8M1PcgyMJVHF1oaEIYvtxmztU7lBIF2RdDV/EsJyZ4utCkatzasc53q+iUn1m8/wCdVvxko0Jje0Wp4B0uZVx7ogwkX3V8I9dU2npbtBNLIFOvLOPdLpUS5+iiyilJSsl/L6q3bT9ndY2VZGxEV20weqivISnKyeHTVQso0sfKD2bpIJ6O5YNaaq6uZ+LRPxUYypqpgjfyqFXzeCrONNVhQN9JOOKzFLBYRC29N1//2gAIAQEAAAAQZUm2R//EAB8QAQEBAAICAwEBAAAAAAAAAAERIQAxQVFhcYGh0f/aAAgBAQABPxBjZVwBxoc9Azlm2oiEo71/QPoL+zoKOhS9v8eAK88BPaa1nx3vOiCzpYxwb+p9yRaIS2LyMg+/rkoCpZAUQrA1jI/g1MBqriUpQCeicWLDYJKgqEUo7Jl5NFcZQUSno5F8cVV2SsqjqVoBC4QkNoSCiJzKHYxpnDU2OGt8UTens3YXPaOsFfLo0rp3zuBVJ2TS+x36ee5dy1EL2CV8tzQQElaYvPVlOuy3kRcLi1nTOhL493mGGAQUAxq1PHg5Fk/JSQURciw6cF3MLyCrYLmK6ZmW3AQAoUNrjDoPHCnxxwMWt9MWCYwi55oVbRC0DwZjyVwRWVmlQXzO34RsAlGtRjKuOg3JwURGZLkRpDatvEqq0shp0pb5PvF0pHu16dUFiX+8eWIhgAKY1C1Gvxz/2Q==',
);
const tgSa = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wgALCAAoADABAREA/8QAGQABAQADAQAAAAAAAAAAAAAABQQBAgYD/90ABAAG/9oACAEBAAAAAWomo41v/9DodYEMnf/RuusFsu//0upK82Stf//TUUN0WN//xAA0EAABAwMBBQQJBAMAAAAAAAABAgMEABESIQUTFDFBIiRR8CUyM0JSYXGBkRU0Q5LB0eH/2gAIAQEAAT8C2dEciRyhwpJK76U76QnI3XZ4Rzt5fXp+KlS0RGw4sKIvj2fGtmxVQ2ChwouVZaGnPSE5sMm3CudvPrr0/rUuWiG0FruQTjoK/9Ce+puOoMq7xpiBqefhUVlEdnfKGDjiQpwnxq3HTnG3RvYYTkg9L/UfepzymoxSyob/AN1HM8/CorSGY++IwcWkKdKvGiDO2i426C5EAyRYaX06/mv/0YvpCSmf7Pd9jDnfzep7+G7j434m6Mvh83qKxw0VDOWWN9bVEP6jKTO9Td9jDnfTx+9T5G7DcbH9zdGXw+b1EY4SKhkqvj1tX//SJYhsFeIabHPEVEaUt5518ZoKsmCo3sPl4dKnuLeHDxFq36TdQSbaWoliEwVWDbQ9bFNQ2XHXnnXhmgqyYKjew/x0raDi3O7RXFcQkhSgk20+v3Ff/9OavfzUQFW3Tqbkjn50pfdoRw/jb0y+QrZyA/39WjrosQOQ82qYsvTUbPNt06m5I9br/qnO6wlYC+6b0v8AIVs9CX+/q9o4MVD3ef8Ayv/aAAgBAQAAABBn/9BT/9Gb/9Lb/9NH/8QAIhABAAEEAgIDAQEAAAAAAAAAAREAITFBUWFxgZGhwbHR/9oACAEBAAE/IW/Qk2IQ66rxEq2bNJ55ik1XVXJ/Kc4aFkweOKiide9CeWYofCnYvzX/0DWylGU/hmp7kGRhKo4utDQhDF9uM2dqncoJAuyLoav4lhOTPF1oUjVubVjnO9f/0b6JSfWbz/nVb8ZKNCY3tFqeAdLmVce6IMJF91fCPXVNp6W7QTSyBTryzj3X/9JdKiXP0UWUUpKVkv5fVW7afs7rGyrI2Iiu2mD1UV5CU5WTw6aqFlGlj5Qezdf/00gno7lg1pqrq5n4tE/FRjKmqmCN/KoVfN4Ks401WFA30k44rMUsFhELb03X/8QAHxABAQEAAgIDAQEAAAAAAAAAAREhADFBUWFxgaHR/9oACAEBAAE/EGNlXAHGhz0DOWbaiISjvX9A+gv7Ogo6FL2/x4ArzwE9prWfHe86ILOljHBv6n3JFohLYvIyD7+uf//QlAVLICiFYGsZH8GpgNVcSlKAT0TixYbBJUFQilHZMvJorjKCiU9HIvjiquyVlUdStAIXCEhtCQUROZQ7GNM5/9E1NjhrfFE3p7N2Fz2jrBXy6NK6d87gVSdk0vsd+nnuXctRC9glfLc0EBJWmLz1ZTrst5EXC4tZ0zoS+Pd5/9LDDAIKAY1anjwciyfkpIKIuRYdOC7mF5BVsFzFdMzLbgIAUKG1xh0HjhT444GLW+mLBMYRc80KtohaB4Mx5//TlcEVlZpUF8zt+EbAJRrUYyrjoNycFERmS5EaQ2rbxKqtLIadKW+T7xdKR7tenVBYl/vHliIYACmNQtRr8c//2Q==',
);
const tcBase = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAYACgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDV8IaPdaLps1tcyRu5nMmYcsMYAHJA9DWdeH/hJtftfsG6MaJck3HncZ+cfdxnP3D1x2rV8SahLZaZNBpkyjU2CmGFAHkb5gCQhBJ43fkfSl0O0tbHTxfyx+Vc3cSzXsjsRlsbmJB4XBLen+HadXkTa3rEGi2KXF0szxtIIwI1BIOCecken/66qeE9FuNF0yazuZIXkeYy5RjgKQoHUA9jWe6P4g8SXUF9GbnQ0QSwMoxGXG0HEi4ycs/GeufStTxNfvaaXPHp80Z1RgrxRJtaRhuG4hMZIwG7djQHmZV9jxJr9ubHKDRbr/STONoPzD7mM5/1Z646j8CtfQrK30/TRqDoILq5jSW9aQlfnAJYkHheS3TGP5FAIydEYeItVt/En/Hr9kDWwt/v7/lJzu4x/rOmD096ueJtS+zi10nyMjVN1t5hb/V52ruxjn73TI6UUUdBX0uaeiaf/Y+jQaeJVn8stufGzO5iemff17Vz+hKPEeqW/iQf6L9j3W/kff34Undu4x9/pg9KKKPIfkaHirUfs32fSjBu/tYvb79/+q3BV3Yxz9/OMjpRRRStcTSb1P/Z',
);
const tcSa = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wgARCAAYACgDASIAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAAAAMCBP/EABUBAQEAAAAAAAAAAAAAAAAAAAAC/90ABAAG/9oADAMBAAIQAxAAAAKs6rrWJ1JKiWwrzhQH/8QAGxABAAIDAQEAAAAAAAAAAAAAAgEDABEjEjP/3QAEAAr/2gAIAQEAAQUDqEgz0bfiKhIM9HYtEREH6WWToiIJ/9AdFYtYD4A6K1az/8QAFBEBAAAAAAAAAAAAAAAAAAAAIP/dAAQABv/aAAgBAwEBPwFf/8QAFBEBAAAAAAAAAAAAAAAAAAAAIP/aAAgBAgEBPwFf/8QAKBAAAQMCAwgDAQAAAAAAAAAAAQACEQMSEyJBBCExMjNRcfAjQ2GR/90ABAAK/9oACAEBAAY/Ai1xHGdybZuwXZpVzpiY3IscRMym2fS7NPv4iKZ+TQaq8iHOEvKcHi6hxHb+oimRi6DVYnBzhL5X/9Bu08tuW33ym0o6uWeyFOZhN2nlsywm0o6uXwv/xAAWEAADAAAAAAAAAAAAAAAAAAABECD/2gAIAQEAAQUyUOBsOaaTuP/QkwKP/8QAIBAAAQQCAgMBAAAAAAAAAAAAAQARIUExYVFxgZGhsf/aAAgBAQABPyE3gd1W/wDU16QuEywEVxLEahcV1t0gD72bkp49qHQjDeT1aILHAdFop2Ud6RiBiUzHtOEGwkJvq1//0D3HY8cp3uk0D/VESZzjJQbiteMv5Vwzc9mD/V//3QAEAAb/2gAMAwEAAgADAAAAIRQTQAQP/9oADAMBAAIAAwAAABCp478IH//EABgRAAMBAQAAAAAAAAAAAAAAAAABYREh/9oACAEDAQE/EIURvNINJvp//8QAGBEAAgMAAAAAAAAAAAAAAAAAABEQQWH/2gAIAQIBAT8QmjBM/8QAIBABAQACAwEAAgMAAAAAAAAAAREhMQBBYVGBobHR8f/dAAQACv/aAAgBAQABPxBgzdUJAMofHi0o7ouPS3fc64UhAAUYuanz/eISVbQQDYPTyFUckw4dbdtzZ+A7CQTECjFcfo/OCLvKLFEcQvx/TxCzIjDIVuG7vzi6AR4RRNSHTp4YG1xwipHGTpJ/H//QLpEfWbpPEde8gyTJdmhM+Ka5JrWDnR1ffvXCI/QdPRPMdcy3M8uwJnvKa5//2Q==',
);
const tcYsub = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wgARCAAYACgDAREAAiIBAyIB/8QAFgABAQEAAAAAAAAAAAAAAAAABAMB/8QAFgEBAQEAAAAAAAAAAAAAAAAAAAED/9oADAMBAAIQAxAAAAFOw1lbYEtAiiBAkLCQUf/EABsQAQEBAAIDAAAAAAAAAAAAAAECAwAEERIT/9oACAEBAAEFAmTnt5rMJCk6Vh9Kzjbf/8QAFhEAAwAAAAAAAAAAAAAAAAAAAAEw/9oACAEDAQE/AbM//8QAFBEBAAAAAAAAAAAAAAAAAAAAMP/aAAgBAgEBPwF//8QAHxAAAQMFAAMAAAAAAAAAAAAAAgABAxESITJCMVFx/9oACAEBAAY/AhgHQckilLUMCrjdmI8ur+ipVQx8+vikaVq2+F//xAAeEAEBAAICAgMAAAAAAAAAAAABEQAhUaExQYGR4f/aAAgBAQABPyGvwDZ0XmmRVbA9vP3CYw/OR1MgDtT5qD1giGop8EyKGw3kpfWf/9oADAMBAAIAAwAAABD6Xp+P9HwD/8QAGREBAQEBAQEAAAAAAAAAAAAAAQAhETFR/9oACAEDAQE/EA5essHL1nzIw7euy8g5D3ZeZGEbt8X/xAAaEQACAgMAAAAAAAAAAAAAAAAAARBBESEx/9oACAECAQE/EC4Wjo4xQ3C2N0YOjP/EAB0QAQACAwEAAwAAAAAAAAAAAAERIQAxQVFhcZH/2gAIAQEAAT8QQkg0XBkPAFKrAbQSK3kTT6H5jCosaQqBykvmcomhKXrWiaVGbDnzT37r7vuQ+L0oBRYm3uf/2Q==',
);

const never = () => false;
const SCALES = [1, 2, 4, 8] as const;

/** every other block of a row, and every third row whole: a mask of the full image's 8 × 8 blocks */
function maskOf(jpg: Uint8Array) {
  const dc = decodeJpegDc(jpg, 1e6);
  assert.ok(dc.ok);
  const columns = dc.image.width;
  const rows = dc.image.height;
  const want = new Uint8Array(columns * rows);
  for (let by = 0; by < rows; by++) for (let bx = 0; bx < columns; bx++) want[by * columns + bx] = by % 3 === 0 || bx % 2 === 0 ? 1 : 0;
  return { columns, rows, want };
}

test('progressive files decode to the pixels of their baseline twins at every scale, masked or not, with the same block means', () => {
  for (const [name, baseline, progressive] of [
    ['gray, default script', tgBase, tgProg],
    ['gray, successive approximation, restart every block', tgBase, tgSa],
    ['colour 4:2:0, twelve scans, restarts', tcBase, tcSa],
  ] as const) {
    const mask = maskOf(baseline);
    for (const scale of SCALES)
      for (const blocks of [undefined, mask]) {
        const a = decodeJpegGray(baseline, 1e6, never, scale, blocks, true);
        const b = decodeJpegGray(progressive, 1e6, never, scale, blocks, true);
        assert.ok(a.ok && b.ok, `${name}: ${b.ok ? '' : b.message}`);
        assert.equal(b.image.width, a.image.width);
        assert.deepEqual(b.image.data, a.image.data, `${name}, scale ${scale}${blocks ? ', masked' : ''}`);
        assert.deepEqual(b.means?.data, a.means?.data, `${name}, scale ${scale}: the means`);
      }
    const a = decodeJpegDc(baseline, 1e6);
    const b = decodeJpegDc(progressive, 1e6);
    assert.ok(a.ok && b.ok);
    assert.deepEqual(b.image.data, a.image.data, `${name}: the DC-only decode`);
    // the picture is not flat: the test compares print, not paper
    const full = decodeJpegGray(baseline, 1e6);
    assert.ok(full.ok && new Set(full.image.data).size > 50, `${name}: flat`);
  }
});

test('the coefficients a progressive decode holds are counted before it starts; a baseline one needs none', () => {
  for (const jpg of [tgProg, tgSa, tcSa]) {
    assert.ok(jpegWorkBytes(jpg, false) >= 128 * 6 * 5, 'a 48 × 40 image has 30 blocks at least');
    assert.ok(jpegWorkBytes(jpg, true) > 0 && jpegWorkBytes(jpg, true) < jpegWorkBytes(jpg, false));
  }
  for (const jpg of [tgBase, tcBase]) assert.equal(jpegWorkBytes(jpg, false), 0);
  assert.equal(jpegWorkBytes(new Uint8Array([0xff, 0xd8, 1, 2]), false), 0);
});

test('what a progressive decode does not read is refused; cut or damaged files are an error or an image, never a throw; the clock stops it', () => {
  const sub = decodeJpegGray(tcYsub, 1e6);
  assert.deepEqual(sub.ok ? 'ok' : [sub.error, sub.message], ['unsupported', 'a progressive image with subsampled luminance']);
  const late = decodeJpegGray(tgSa, 1e6, () => true, 1);
  assert.equal(late.ok ? 'ok' : late.error, 'out-of-time');
  const big = decodeJpegGray(tgProg, 100);
  assert.equal(big.ok ? 'ok' : big.error, 'too-large');
  // a file cut after some of its scans is read (coarser): the DC scans alone give the block means exactly
  for (const jpg of [tgProg, tgSa, tcSa])
    for (let n = 0; n <= jpg.length; n++)
      for (const scale of [1, 8] as const) {
        const r = decodeJpegGray(jpg.subarray(0, n), 1e6, never, scale);
        assert.equal(typeof r.ok, 'boolean');
      }
  const rand = prng(5);
  for (let k = 0; k < 400; k++) {
    const src = [tgProg, tgSa, tcSa][k % 3];
    const d = src.slice();
    for (let i = 0; i < 1 + (k % 4); i++) d[Math.floor(rand() * d.length)] = Math.floor(rand() * 256);
    const r = decodeJpegGray(d, 1e6, never, ([1, 2, 8] as const)[k % 3]);
    assert.equal(typeof r.ok, 'boolean');
  }
});
