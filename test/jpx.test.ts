// JPXDecode (layerQuality/jpx.ts with jpxBlock.ts and wavelet.ts): JPEG 2000 scans read to gray. The codestreams were
// written by another coder (OpenJPEG 2.5's opj_compress) from the images this file draws, so the tiers, the wavelet and the
// progression orders are checked against a writer that is not ours: a reversible coding must give the image back exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJpx, jpxWorkBytes, readJpxHeader } from '../src/analyzer/layerQuality/jpx';
import { analyzePdfSync } from '../src/analyzer/index';
import { prng } from '../scripts/fuzz';
import { printScanPdf } from './pdf-helpers';

// a 24 × 17 image of "print": 2-pixel strokes 6 apart, rules every 8 rows, paper of five levels
const W = 24;
const H = 17;
const gray = (x: number, y: number) => ((x % 6 < 2 && y % 8 < 6) || y % 8 === 7 ? 40 : 200 + ((x + y) % 5) * 10);
const rgb = (x: number, y: number) => [gray(x, y), (x * 9) & 255, (y * 11 + x) & 255];
const luma = (r: number, g: number, b: number) => (r * 77 + g * 150 + b * 29) >> 8;

// opj_compress -i IMAGE -o NAME OPTIONS (gray unless said): lrcp -n 3 (reversible, LRCP); rpcl -n 3 -p RPCL
// -c [8,8],[8,8],[16,16] -b 4,4 -r 4,2,1 (precincts, 4 × 4 code-blocks, three layers, the last lossless); pcrl -n 2 -p PCRL
// -c [8,8] -b 4,8; cprl -n 2 -p CPRL -c [8,8] -b 8,4 -SOP -EPH; modes -n 2 -M 63 -r 3,1 -b 8,8 (every code-block style:
// bypass, reset, termination on each pass, vertically causal, predictable termination, segmentation symbols); tiles -n 2
// -t 10,7 -d 3,2 -T 1,1 -TP R (tiles off the image's origin, a tile-part each resolution); irr -n 3 -I (the 9/7 wavelet);
// rct, ict, nomct: RGB, -n 2, the reversible transform, the irreversible one (-I), none (-mct 0); box: -n 2 -I -r 2 as a JP2 file.
const FIXTURES: Record<string, string> = {
  lrcp: '/0//UQApAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAABBwEB/1IADAAAAAEAAgQEAAH/XAAKQEBISFBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAGrAAH/k8+0gBFApTAj/mu5447m6mO3msUxgPr1A6Qhhs9VJsp6AuCrz8CKfgMx+A6AFwVCwP5/eHHAl4E/hu7WZoUK54z2gWLwHbesJzrD9lpHew7P/RNU+P7jpuuiVzhrfvoIvi1yQLoycDEAF8e0lkh3N8CAIa6UXz4HBPGgozE6a1hFE1J5dcfa0z8FeH2qABEkX+clCr8v5zPGoFzS6GjGGHyoDyJ6LlTVuzojyBGw/3xPa16p5uEyET4/zRXc3uhu9atqf2l+p8oiTX84qwyYqZZ8NtEP0+Y7tx8z3v7Rme8xVla1E5t2ak/6MpUXMUQhgkyrd9TQgxp07jjyBW9jEFHsPaTLm/38Fn9+E8SfZIBL3xg6blF9g5VfqPh3B1KtspHyAY+LnsUx45FHUoe6LegODeBYrtyeJf6E8koG3s4IocPiN3Igg+/CXXhx5TJPK3MEaPr1CRGBzF/P3a4Hxy5wPK4lHXwNR2lrgy7C3pgg1eVMowgI9V5WQ345Mx8OudBHOVcASPQWFrMnhdbQRcfDvJrZNjeRVn0AtQHL/9k=',
  rpcl: '/0//UQApAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAABBwEB/1IADwECAAMAAgAAAAFEMzP/XAAKQEBISFBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAJOAAH/k+eGABFApXUpG7iAE30++/1Bf1gt9QJHyAzQHolRNDyI3kgJLx/lyLR6Bc+Jvwv1f4DPETooFwVCw6Il/IAOz/1LMv1hf2BsfgJgU6WJkwujyV3oZS8H8dzj1IjSsg1v3YIfABfH9SLc0FFQbPbGF2Hpp67gn84QEM0vU5EYDtHq/aDx9oT94QDHtUQyt3/fGjR0fYYErsvbK7SIMmPMrh+AgMPqBQv1kNV/gIDD6gMGS9+ApEAadMfaJfeHwfUHgBEkX+bjSumtoHsd3QCFdn4Hf/9/g40Gp5qMsuKQT6illwVhPCL5v5wqbpTOoq+0GYCnCACeY+vH2iX2hkPtEBfEpnfC+HtCyNzmVUXHHAIO+4WmQejr98i6GnJCXx3FnQ3E+oHHvAX/VCtBsCiApGAA2F3H2iH3h0H1BwATyrmDVMzFha5SI1mhaMaWf1IezSt3AXk7UjznCz8K4GmiJ6kmcAHRNI2M/YCkQBp0x9on94bB9QeAESRf5uOmqucJNo/5bKM2+gn8T/99WjC5yPcG8u5wwX4C0/jtsu8lovYpO5Jmyy+ApGAAnmPH2iP3h8PtERfEpnfsytIc4jgH/zJ14CFK7zwpER2Jm68uOhbdjIp/GU3GoNxw4d4NOEQ3MrqppaOApwgA2F67x9oj9odB9QeADh1ssNsbxJb+kDQ+6vd0I5/JTcULEDnI5+mJt8zYvwHpUcJPIePxbO6xNTImc4CAx9oMBcwaBtRfgIDH2goLKncOO4CAx9oIA3tmxf/Z',
  pcrl: '/0//UQApAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAABBwEB/1IADgEDAAEAAQABAAEiM/9cAAdAQEhIUP9kACUAAUNyZWF0ZWQgYnkgT3BlbkpQRUcgdmVyc2lvbiAyLjUuMP+QAAoAAAAAAh4AAf+T34CYESRCMQfNPNam0XUFr/noGgGTa8faJT8BGD6g8BEkX+bjSumtoHsd3QCFdn4Hfxp0/3+DjQanmoyy4pBPqKWXBWE8Ivm/nCpulM6ir7QZ34CYGVcsw5PO1MKBPT9ijBRTJetk78faJT8BCH2iABfEpnfC+HtCyNzmVUXHHAIO+wCeY+uFpkHo6/fIuhpyQl8dxZ0NxPqBx7wF/1QrQbAo34CQD1fwlAtLGCy7IC6owhw+l2T9x9ohPwEYPqDgE8q5g1TMxYWuUiNZoWjGlgDYXX9SHs0rdwF5O1I85ws/CuBpoiepJnAB0TSNjP3fgJgRJNO3AV4F41D3RwoDaD2rvkV/x9onPwD4PqDwESRf5uOmqucJNo/5bKM2+gn8Txp0/31aMLnI9wby7nDBfgLT+O2y7yWi9ik7kmbLL8+0SA/ON1W3YSWpqC+fwIs9bsESf8faIz8BKH2iIBfEpnfsytIc4jgH/zJ14CFKAJ5j7zwpER2Jm68uOhbdjIp/GU3GoNxw4d4NOEQ3MrqppaPfgJAJ+HmCUZgiFCImey8K7iLlnH/H2iM/ASg+oPAOHWyw2xvElv6QND7q93QjnwDYXrvJTcULEDnI5+mJt8zYvwHpUcJPIePxbO6xNTImc9+AKAXlB74Lx9oMBcwaBtRfz7QQDkqHtcfaCgsqdw4734AoDFAdlqPH2ggDe2bF/9k=',
  cprl: '/0//UQApAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAABBwEB/1IADgcEAAEAAQEAAAEiM/9cAAdAQEhIUP9kACUAAUNyZWF0ZWQgYnkgT3BlbkpQRUcgdmVyc2lvbiAyLjUuMP+QAAoAAAAAAq4AAf+T/5EABAAA34CY/5IRJEIxB8081qbRdQWv+egaAZNr/5EABAABx9olPwEYPqDw/5IRJF/m40rpraB7Hd0AhXZ+B38adP9/g40Gp5qMsuKQT6illwVhPCL5v5wqbpTOoq+0Gf+RAAQAAt+AmP+SGVcsw5PO1MKBPT9ijBRTJetk7/+RAAQAA8faJT8BCH2iAP+SF8Smd8L4e0LI3OZVRcccAg77AJ5j64WmQejr98i6GnJCXx3FnQ3E+oHHvAX/VCtBsCj/kQAEAATfgJD/kg9X8JQLSxgsuyAuqMIcPpdk/f+RAAQABcfaIT8BGD6g4P+SE8q5g1TMxYWuUiNZoWjGlgDYXX9SHs0rdwF5O1I85ws/CuBpoiepJnAB0TSNjP3/kQAEAAbfgJj/khEk07cBXgXjUPdHCgNoPau+RX//kQAEAAfH2ic/APg+oPD/khEkX+bjpqrnCTaP+WyjNvoJ/E8adP99WjC5yPcG8u5wwX4C0/jtsu8lovYpO5Jmyy//kQAEAAjPtEj/kg/ON1W3YSWpqC+fwIs9bsESf/+RAAQACcfaIz8BKH2iIP+SF8Smd+zK0hziOAf/MnXgIUoAnmPvPCkRHYmbry46Ft2Min8ZTcag3HDh3g04RDcyuqmlo/+RAAQACt+AkP+SCfh5glGYIhQiJnsvCu4i5Zx//5EABAALx9ojPwEoPqDw/5IOHWyw2xvElv6QND7q93QjnwDYXrvJTcULEDnI5+mJt8zYvwHpUcJPIePxbO6xNTImc/+RAAQADN+AKP+SBeUHvgv/kQAEAA3H2gz/kgXMGgbUX/+RAAQADs+0EP+SDkqHtf+RAAQAD8faCv+SCyp3Djv/kQAEABDfgCj/kgxQHZaj/5EABAARx9oI/5IDe2bF/9k=',
  modes:
    '/0//UQApAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAABBwEB/1IADAAAAAIAAQEBPwH/XAAHQEBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAKwAAH/k+6euOgRJEJOZ2+ACSMC256ksDFF0Q9URr+XHOHXgP3BFWEYEYEIEIEIH7hLZNIhEIhEP8CJRJJJJJJJJP8BEkkokkgkEglytu6ziVUrbA0ICJcYtrY87527ulvhjraVbYORnI+cIoq2lzf1M/Nlf2e2PTBQYZhF1zW2tupzoPKMQza2NN24/0O5zAm2rGtf2sQAtjFzi5S23bc39rYGCLDUtqImYnq2BdlANAwKWKy2UTS2BbW2XDW2Kra2lWq2DA00AEA0AEDkAgC2laq2FbZVthW24/bYSCqiyiTibiUD+1iiVIyYTCYf2mSSSSSSCQT+0iSSSSSQSCc/hQgkRihkyEjCbCTj/BUSUUjEUymTDh+2RRlEGVEnEnEnG+p2jETCmUyAESRf5yUKwq/uJJGLmqov7A0ztkKmorUguh8mdve2C3IPPFnVvpayUhK2EAEoKRSl8xFKtsmllZfcbooHIhW2aipuX4j8fY/t1bYTyrj1hqWIJF5Qgb2VEx/X4TBpw4e438K2gqLgGTW2CqUh+Aq2WpDgvwK2BctvDHC2uy22AFu21Sa2ebbEtgT71wBAAABAAMZApVW25bbVthp07jh0O7qV7OpFMWyNO6uRtXTpThheakJGg9ViXC8AAnC71p3CxRUAa0CIFBWKcpjFkkq2Q1g5nAXN0ViOtgAVpKeQgEu7CbYA2Cq0OBVZtXmpct9KlCMCsEiNNiNqe2U1CAnYZwW2ooYGgFW2AvgZT2q2Mkx6QABf/SG1NAVhPB9QdjD3cJrMrzhhPDIiQA5fsjH14vVu4MYaPTu6tgAB3ydzvTfb1bYAAVBaABAIKhW2AAHJDZ7LU7kVtgrgaaU0Shsj9GIDXECOCMxtNPa2pbhcUzi2ACpkJaK2ACqS0Ny2/9k=',
  tiles:
    '/0//UQApAAAAAAAbAAAAEwAAAAMAAAACAAAACgAAAAcAAAABAAAAAQABBwEB/1IADAAAAAEAAQQEAAH/XAAHQEBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAAgAAL/k9+AeA9heCV3f/9EpthA/u6kX/+QAAoAAAAAADMBAv+Tx9oVB84mD6gkDyOaQoEeQKjU6BLhaKpL+W2Z3Rbtepdggf0hf/+QAAoAAQAAACEAAv+Tz7RAAl+z2WKVnHAkC7MHVaL1D/+QAAoAAQAAAEABAv+Tx9ohB842D6gwFn42BCaiQn6W+1gA2MXHfxHgVL5Spl0jm4SBUH8EdGIujTQ6Z8FjVT//kAAKAAIAAAAcAAL/k9+AWBHfH7bzQ0cVh+m5/5AACgACAAAALQEC/5PH2g8HziIPqBwPLALe4vNfFPIAEBIztxcUWnYgGkuP/5AACgADAAAAJQAC/5PfgKAZUp74jiGWW83W4x0/j1XNiGB6Y/+QAAoAAwAAAEABAv+Tx9ohPwDoPqCwFn/ugp6L35BU18eVCAvvbRBT24bhqUh1hIKLBf9/EHn/fkrXMdSLI1f/kAAKAAQAAAAnAAL/k8+0WAjxy5Sqvj2IW4Z9PK4H22IzbFoYH+v/kAAKAAQAAABHAQL/k8faKT8A+D6g0Brssj5C82Etp1Qmj3bs5fkvvIHfB0V5OAiFh2TxCDn4Ryl/DZmjwBVYIK1IdXn4Yf+QAAoABQAAAB8AAv+T34BwGb+Tw85WiTNfA+hGgsP/kAAKAAUAAAA1AQL/k8faGT8AqD6ggBaC1Mipp6QEkyxUvxBZ9IV6i5eLVM8P5mGUpieq7f+QAAoABgAAABsAAv+T34BQGPewWJzSIwUwkf+QAAoABgAAADQBAv+Tx9oTPwCofaFAD8EvZby3WYUPBvDOWHVjWQkC6w1uIW0ATyzHWd//kAAKAAcAAAAdAAL/k9+AYBTJMLfBf4Wc0f0rv/+QAAoABwAAADsBAv+Tx9oXPwDYfaGAFMrwR/r/U/qxgn8MB1KxD6gT0J52Gro3El1JIMNZDI0szoPf/5AACgAIAAAAGAAC/5PPtBwMT2NmQHcL/5AACgAIAAAALAEC/5PD6gafgEQ+0HAPvcXsmk8G74t3hRpHXw18TA+t2Zn/2Q==',
  irr: '/0//UQApAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAABBwEB/1IADAAAAAEAAgQEAAD/XAARQl9SUAVQBVBHV9NX01di/2QAJQABQ3JlYXRlZCBieSBPcGVuSlBFRyB2ZXJzaW9uIDIuNS4w/5AACgAAAAAByQAB/5PH5lAXsUcSeBMR8VME7Zt5unoXZQvpTOz3H2zDElmtJUJPhpoQ5vXDL7GNz8yePwG4/AdAFwUn5NYjkFNJXRj1tKMkxU5+YE8e0XZnIjydPcSpXOLHifDD0zFHDs/89tDKwol2FUXoJtNzKt0wD/wx+u6sgpPHFosNLeNE2uOPZDabAW6jk/rR6HNnVTfcvz26r1/H4N0fgwQfUogedPflgx3TaDoEdr4Fxf3cPMuoIqE7oNK5Zv5dgVWdZ9V43xaYVjfl1/VIyO2rmnCxFyltoQJ+1ygBsBNJ/UXjPPbhV+yG8TFCrnaz4M9ZRmMW+n5/wsllWYiTyUqFudyWEGA23VmCGzoZR9xmkxp07g5ze6SBYXSWyiNHTF4AP4rKJCv+VLfwte000XNX2q7H+bqSkK+wCFnjvi6Hf39G8QjkglnuMu8VaYXHo2n2heb0x0sfsZ98GCC5X/qy7UhmhBkSs63eewFBRxQrHx93XmqwdtxsH6jsecOd5ZpbfEo28C+5G9GEeBFqO8Iq68lJCjXmda6EKX5qJwCxLteHTq0p4hWBOxK76SgjBzdnLsD5C+pgwSJ9L+s2ZnVdt//Z',
  rct: '/0//UQAvAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAADBwEBBwEBBwEB/1IADAAAAAEBAQQEAAH/XAAHQEBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAANGAAH/k9+DIBIyXG1MjefJ43ru7xLuxgueXIdCJ+69rh0hFOlMkMbB33sV6Xm37YTMimxRbsVaN7WDDatTnMuXsGVUap2rVKxiJTVn1Tq2a2loUw0RElH5ONEva1wIp+MUKCMMmXPkUXrrHF/fgqA7VXb0f0bgVzO9j2vLbTBE6Vw1AmuL2Qq/KsAhzcleWM5K1soJ+Y7ZYnDyFPjJZjMSoYZX8/YUdWbKlm+BSkUgyhu0LYOg1+txwJA1oKgAFEBKac7fg8gCuuwzDXWLAvSGDBitlpEQnbPBqXXS4OZl3M0NIXM5mKpQLSuu7ZdtgsREyxOJood6K62cu0hm4aFGXxYRMQwQc2gqUgjzlhiCHakaiF67E/my2jun1qs4CP1k3bCifO6eQ9lc7UNMu+/Hfgn+Gm0jJPEh9Y9jRJ5/wfPT4fUhwPnoIBEkX+clCr8v5zPGoFzS5OlGnEBg/Zfqs9RDPxfFUcsGDY7gT+HTJEA4y+bPBhJHS8StZbDkINW9bcWFalS8npC56BQH610+RMos27OyMCAadO448gVvYxBOyJ3EAxSPXzsA0WPHrYP3/x+AYIi3MHlM+q6xFMlGPHpKhh/hB5+qPHv7o3yk6KvocyhE0sJu+n2nMkuiAVQICX670M0qdmJOZsK6MCdsD7vKP64eVVMk+XtAUvS2XpipMf37jXrDJnpiBlo9TBs3Lm+ldiqJSGMrH4/A+QIASnmzTMfa0z8FeH2qABEkX+clCr8v5zPGoFzS6GjGGHyoDyJ6Lk3A1m0dBBBF0yL2pfazzbc4DCo2pySB21IKVyZQg3yl+Wl0T2qJ5e4nWRD407m0U2SqdKY2Dqb6Ez3urKX/gKu48Rp7r0Kmvaf+qZMMo39YLRp07jjyBW9jEFHsPaTLm/38Fn9+E8SfZIBL3xg6blF9g5VfqPh3B1KtspHyAY+LnsUx45FHUoe6LegODeBYrtyeJf6E8koG3s4IocPiN3Igg+/CXXhx5TJPK3MEaPr1CRGBzF/P3a4Hxy5wPK4lHXwNR2lrgy7C3pgg1eVMowgI9V5WQ345Mx8OudBHOVcASPQWFrMnhdbQRcfDvJrZNjeRVn0AtQHL/9k=',
  ict: '/0//UQAvAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAADBwEBBwEBBwEB/1IADAAAAAEBAQQEAAD/XAALQkgkV9NX01di/2QAJQABQ3JlYXRlZCBieSBPcGVuSlBFRyB2ZXJzaW9uIDIuNS4w/5AACgAAAAAEEAAB/5PPwcgRYJDX+5biVR6gUGiJQalKTlbIy+a4LZ16gxjZOKjqwSA2LHM0snRxAXANNEik1DcE0Zq/CwsSGOJGazU205WhIySQf8p2Phj3rnQ02sRABK52jfZtNrcHLF2ciOC/Y/i0uNg0J6NRK73BoWk5QPOop07PwbA69kBbkrZ3GW7PMWrkasytrgG+G3oi76mWR4n2XmG7Ai5iJY8fro1CieNn5mz1DnWP28k8ltZVvBEhXTNYwQD5bcwf64IghAOpiFnehepO/e+Xzo9C6NSMqW2D8HJbcMCSkj0M2rQ564zYuNDPwdQX0bIxFsd+Wq4JXGoNULpdqSsqodx0ucu4yGzhgRkPcd0F6FH7alaX2hFRanBgS+ccQSboLUq+IdMZUwK4/leJZ6xLK5XmJM5TEYpwiFZByv1q1Z1z0WKoW0rHDbGM4kocYHOqsTINFgm1fLg9DQqz+e/fyC/B9StD7UmB870bextSEGKOIIAc76NEM8KpYvfvimGPPvTczP2ak8P7oeT5fvGwmOaiZlsT+oqx4DrtOXw7xxc+hMl28fO+/JQFr8uaIpIHgQYQwwYWKaefqaKPbmBOpz6HKhD4+fJK0DJVUrxJBKcwZNWfsB9Yz0JlwF4x0M2d1qA1MCg00eO0ICmPhyDmxD2XxCrZNI1U3x81uPClsw3I7XYT6xxP1BdrbEfvoVeltjvZeAsnNFiFAoJUZ9aPTxzHRS6EW3JSqaKVJ7+FGQ4yKDfw0wcNmtdHhhZpVVtZ1T9eXFsbwPnpMH1H8B8i8Bw6GOoXLgWfmFih2ctw9nge0Sda/z8Alt9vdrTnXrybH4zs+Bf7vhAaBIiPgq+oIMULlU6byyWRQkl40sJEamPLIrwANW99iM8e57V7o6gu9r88OWxoX0bVjT2DWcCuFGNaVdTQqZEqmfiDi8FA35oBYC+6kGuWjmcFAD/n0TXHtspq8So7nhMtLvWZAqpZ2fAFAeykntts/VGYcJr4M91pR74+wvbPJ3ucwyP0sod3C7h8DXCnEsPtXofapwPnooAedPflgx3TaDoEdr4Fxf3cPMuoIqE7oNK5Zv5dgVWdZ9VuRPpaqAIbgzhq5/QwRcpPi4uFSMzk7F9mwpgviXTavI1E7R9mrZnIkFZSYR79rV7PG4K1lFj6LMYRtSRIGnTuDnN7pIFhdJbKI0dMXgA/isokK/5Ut5gRq1ijdBV7FEDfN1IuIEFZfAeI2qkqt/wKxAs3GY7qWrSPPdfdPDfrQ2D0M5DcFn9ghPyLPK4VpsYfd15qsHbcbB+o7HnDneWaW3xKNvAvuRvRhHgRajvCFGuZS4aRnDOtdCFLVEuILVLu8OnOWDRhHLZV1m0koIwTA/sSZpP/2Q==',
  nomct:
    '/0//UQAvAAAAAAAYAAAAEQAAAAAAAAAAAAAAGAAAABEAAAAAAAAAAAADBwEBBwEBBwEB/1IADAAAAAEAAQQEAAH/XAAHQEBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAJEAAH/k9+DiBEkQk5mpbhgml8VzyTxS/4ssJBwe348Hozh8zHOa0r6aLzd6nV8eUutzkdSBuh03uVmH3Z9n9ySwzYVuNj+z14KdfXdRKCPMogZwjoehlhek96RXH+5T1SwqYlcZXA0ipL32Xuf002ldV8aH1j2Nwbf34IwEWr6XIDYOLdhyMhna5IZAWmYG1JCI1uadod2BHBguA35gK7UygwD5u06XVtLxme6TrfWx6TjqDWg4K3OWe0VBa5yzcX5M9+CaBIyKxqVhrDnVo8bGhKPNk5J3M2Cn/EffyOrBjoq6o7yZV4TkF3uHICLBVb/WHCHV1w2WgI1lgjgrNm85se8icROIncL9MI+dtXaCwB/x9rTPwV4faoAESRf5yUKvy/nM8agXNLoaMYYfKgPInouVNW7OiPIEbD/fE9rXqnm4TIRPj/NFdze6G71q2p/aX6nyiJNfzirDJiplnw20Q/T5ju3HzPe/tGZ7zFWVrUTm3ZqT/oylRcxRCGCTKt31NCDGnTuOPIFb2MQUew9pMub/fwWf34TxJ9kgEvfGDpuUX2DlV+o+HcHUq2ykfIBj4uexTHjkUdSh7ot6A4N4Fiu3J4l/oTySgbezgihw+I3ciCD78JdeHHlMk8rcwRo+vUJEYHMX8/drgfHLnA8riUdfA1HaWuDLsLemCDV5UyjCAj1XlZDfjkzHw650Ec5VwBI9BYWsyeF1tBFx8O8mtk2N5FWfQC1AcvA+QOASyW1Ry3kf8ARAEsl/9k=',
  box: 'AAAADGpQICANCocKAAAAFGZ0eXBqcDIgAAAAAGpwMiAAAAAtanAyaAAAABZpaGRyAAAAEQAAABgAAQcHAAAAAAAPY29scgEAAAAAABEAAACianAyY/9P/1EAKQAAAAAAGAAAABEAAAAAAAAAAAAAABgAAAARAAAAAAAAAAAAAQcBAf9SAAwAAAABAAEEBAAA/1wAC0JIJFfTV9NXYv9kACUAAUNyZWF0ZWQgYnkgT3BlbkpQRUcgdmVyc2lvbiAyLjUuMP+QAAoAAAAAACkAAf+T3WBRGi3Lygbc+r983ozByr/fLTxNv0zq04qA/9k=',
};
const bytes = (name: string) => new Uint8Array(Buffer.from(FIXTURES[name], 'base64'));
const never = () => false;

function expected(colour: boolean): Uint8Array {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) out[y * W + x] = colour ? luma(...(rgb(x, y) as [number, number, number])) : gray(x, y);
  return out;
}

function decoded(name: string, reduce = 0): { width: number; height: number; data: Uint8Array } {
  const r = decodeJpx(bytes(name), reduce, 1e6, never);
  assert.ok(r.ok, `${name}: ${r.ok ? '' : r.error}`);
  return r.image;
}

test('reversible codings give the image back exactly, in every progression order, code-block style and tiling', () => {
  for (const name of ['lrcp', 'rpcl', 'pcrl', 'cprl', 'modes', 'tiles']) {
    const im = decoded(name);
    assert.deepEqual([im.width, im.height], [W, H], name);
    assert.deepEqual([...im.data], [...expected(false)], name);
  }
  // RGB undone from the reversible transform, or read as it is, then made gray
  for (const name of ['rct', 'nomct']) assert.deepEqual([...decoded(name).data], [...expected(true)], name);
});

// OpenJPEG's opj_decompress of three of them (its output's samples): box whole, lrcp and irr at half size (-r 1)
const OPENJPEG: Record<string, string> = {
  box: 'Ez2AzfNvAG76/+1vAS6BxO26em56sef0Ez2Ax/CYQXO+5eyYRFF9vey/hHN6sOf0Ez2AwuzBh3FztO3Bh3V6uO29gXF6sOf0CTeAzfqjREpzw/qjQ1B9yfqdOUp9u/H+DTmA0Pl9AS2A0fl9AS2A0fl9AS2Avu36U2R/pbmAR1uBoa97R1uAprmAR1qAnbS6jYeAe3mDjYiAd3OAjYiAe3mDjYiAfHp5U2qDfm9ZS1x3m7B8R2GEfm9ZS2aEfG1rDUOGkIA9BzN6zvp9ATeHkYA8B0GHh3p5EECDq7l7Q3e96vadQ1WAprmAR1qAnbS6Fz9/xfO6gLXz+Oa2h3R5u/PEh3R5s+36ACCC1v+iQHG96vadQ098zf+nQ058vvr/AA+E1/l9ASl6zvp9AS2A0fl9AS2Avu36L1GBqLmBR1V2obqBR1qAprmAR1qAnbS6lYx/enmDjYiAe3mDjYiAe3mDjYiAfHp5JVGFh3leSmWDhHleSmWDhHleSmWDgHd1ABWKm4ZAB0CGlIZAB0CGlIZAB0CGioCA',
  lrcp: 'AMr5H9zgJ8jlLLTiAM/hLLf0Lrj/KsjlALX/E8X/CdTpDc3Np76mrL+dvKasvJy8AIrJF5LUEKDKCK6hAMj+IdfmJM/hLLfeAM3kGLT3GbX/E8Xlt5zApq6/o76mrL+gAIGFAHqFAmGYAGiP',
  irr: 'Dr/vOcTeP7PhQ63gE77eRqzrSaz4Rb7gA638NLj4LsHoL77Si7OplLGgoKGqoJm1CYK9MYbFLJG9Jp2hGsD1Q8fmRL7iS7TeAL3jN6rwOqr9Nb3kmpy9lqm7lLasmbWkAHF9G2h8H1iIHWCE',
};
const worstOff = (a: Uint8Array, b: Uint8Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

test('the 9/7 wavelet and the irreversible transform come close to the image (lossy, as archives store scans)', () => {
  assert.ok(worstOff(decoded('irr').data, expected(false)) <= 3);
  // the irreversible transform's Y is luma itself, read alone (Cb and Cr are never decoded)
  assert.ok(worstOff(decoded('ict').data, expected(true)) <= 4);
  // a JP2 file coded at ratio 2 (far from the image): as OpenJPEG decodes it
  assert.equal(worstOff(decoded('box').data, new Uint8Array(Buffer.from(OPENJPEG.box, 'base64'))), 0);
});

test('a reduced read skips whole wavelet levels: half the size, as OpenJPEG reads it at that level', () => {
  assert.equal(worstOff(decoded('lrcp', 1).data, new Uint8Array(Buffer.from(OPENJPEG.lrcp, 'base64'))), 0);
  // the 9/7 in floating point: within a level of OpenJPEG's rounding
  assert.ok(worstOff(decoded('irr', 1).data, new Uint8Array(Buffer.from(OPENJPEG.irr, 'base64'))) <= 1);
  for (const name of ['rpcl', 'tiles', 'rct']) assert.deepEqual([decoded(name, 1).width, decoded(name, 1).height], [W / 2, Math.ceil(H / 2)], name);
  // asked to reduce further than the levels there are: the coarsest there is (pcrl has one level)
  assert.deepEqual([decoded('pcrl', 5).width, decoded('pcrl', 5).height], [W / 2, Math.ceil(H / 2)]);
});

test('the header tells the size and levels, and the work bytes grow with the image and shrink with the reduction', () => {
  const h = readJpxHeader(bytes('irr'));
  assert.ok(!('error' in h));
  const { structures, ...size } = h;
  assert.deepEqual(size, { width: W, height: H, components: 1, levels: 2 });
  // one precinct and one 64 × 64 code-block per band and resolution, and what tile edges could cut: a handful
  assert.ok(structures >= 1 + 3 * 2 && structures < 100, String(structures));
  assert.ok(jpxWorkBytes(h, 0, 500) > jpxWorkBytes(h, 1, 500));
  assert.equal((readJpxHeader(bytes('box')) as { width: number }).width, W);
  assert.match((readJpxHeader(new Uint8Array([0, 0, 0, 12, 0x6a, 0x50, 0x20, 0x20])) as { error: string }).error, /no codestream/);
});

test('a few header bytes that ask for millions of code-blocks are counted before anything is made', () => {
  // lrcp's main header with its size raised to 20,000 × 20,000 and its code-blocks cut to 4 × 4
  const b = bytes('lrcp');
  const big = b.slice();
  const put32 = (i: number, v: number) => new DataView(big.buffer).setUint32(i, v);
  put32(8, 20000);
  put32(12, 20000);
  put32(24, 20000);
  put32(28, 20000);
  const cod = big.findIndex((v, i) => v === 0xff && big[i + 1] === 0x52);
  big[cod + 10] = 0;
  big[cod + 11] = 0;
  const h = readJpxHeader(big);
  assert.ok(!('error' in h));
  // 25 million code-blocks in the top level's three bands alone, 200 bytes each: the budget refuses it before a byte is made
  assert.ok(jpxWorkBytes(h, 0, big.length) > 4e9, String(jpxWorkBytes(h, 0, big.length)));
});

test('damaged, truncated and hostile codestreams are an error, never a throw; the pixel limit and the clock are kept', () => {
  // every prefix of a coded image: an error or (for a prefix missing only later layers) an image, never a throw
  const full = bytes('rpcl');
  for (let n = 0; n < full.length; n++) {
    const r = decodeJpx(full.subarray(0, n), 0, 1e6, never);
    if (!r.ok) assert.equal(typeof r.error, 'string');
  }
  // a prefix that ends inside the first layer's packets of what is needed says its data ends early
  const cut = decodeJpx(bytes('lrcp').subarray(0, 200), 0, 1e6, never);
  assert.ok(!cut.ok && /ends early|runs past/.test(cut.error), JSON.stringify(cut));
  // random bytes after a valid main header, and bytes flipped anywhere
  const rnd = prng(7);
  for (const name of Object.keys(FIXTURES)) {
    const b = bytes(name);
    for (let k = 0; k < 40; k++) {
      const c = b.slice();
      for (let j = 0; j < 1 + (k % 5); j++) c[Math.floor(rnd() * c.length)] = Math.floor(rnd() * 256);
      const r = decodeJpx(c, k % 3, 1e6, never);
      if (r.ok) assert.ok(r.image.data.length === r.image.width * r.image.height);
    }
  }
  assert.match((decodeJpx(bytes('lrcp'), 0, 100, never) as { error: string }).error, /pixel limit/);
  const late = decodeJpx(bytes('lrcp'), 0, 1e6, () => true);
  assert.ok(!late.ok && late.outOfTime === true);
});

test('markers the decoder does not read are named: a region of interest, a progression order change, packed headers', () => {
  const b = bytes('lrcp');
  // the main header's first marker after SIZ (4 + Lsiz): insert a marker segment there
  const at = 4 + ((b[4] << 8) | b[5]);
  const withMarker = (m: number, body: number[]) => {
    const seg = [0xff, m, 0, body.length + 2, ...body];
    return new Uint8Array([...b.subarray(0, at), ...seg, ...b.subarray(at)]);
  };
  const why = (m: number, body: number[]) => (decodeJpx(withMarker(m, body), 0, 1e6, never) as { error: string }).error;
  assert.match(why(0x5e, [0, 0, 5]), /region of interest/);
  assert.match(why(0x5f, [0, 0, 0, 1, 1, 0]), /progression order change/);
  assert.match(why(0x60, [0, 0]), /packed packet headers/);
  // a comment is skipped
  assert.ok(decodeJpx(withMarker(0x64, [0, 1, 65, 66]), 0, 1e6, never).ok);
});

// The print scan of test/pdf-helpers.ts (ink 30 on paper 235), coded by opj_compress -n 5 -I -r 80 as a JP2 file
// (lossy: the wavelet rings around the letters).
const PAGE =
  'AAAADGpQICANCocKAAAAFGZ0eXBqcDIgAAAAAGpwMiAAAAAtanAyaAAAABZpaGRyAAADGAAAAmQAAQcHAAAAAAAPY29scgEAAAAAABEAABdnanAyY/9P/1EAKQAAAAACZAAAAxgAAAAAAAAAAAAAAmQAAAMYAAAAAAAAAAAAAQcBAf9SAAwAAAABAAQEBAAA/1wAHUJvIG8AbwBu4GdQZ1BnaFAFUAVQR1fTV9NXYv9kACUAAUNyZWF0ZWQgYnkgT3BlbkpQRUcgdmVyc2lvbiAyLjUuMP+QAAoAAAAAFtwAAf+Tz7NfQMDjTsxXghHRa6ChrtJxm1FD040ezqepnctkPJL58CfykVHZcCW6kzTJP5+buPxTHqdTE8sBLmgK4Pt7CAAAAAFnyeBsLmZLcNGLIAMJCX01fweaQ3gkA+weL4SmVMpxc8/RhNX7cSgjVvMzZueWn2eChT0cDr4AwkJfN+1QDCN9cTKHS4WXO9LADBQJNh7rYV5uJZe1IBQGZQ0to9RceDBGrlUUl6phiMUCmrS1tnYlR3K4yBres17/cRKygsWAAAAAAGEhL5Vl3TF0NCHh3Ckwu+OnE/82/FdIsQkrH5enrfg4wZVLGrpxcJJ2lsIHAUZE6v9smZc8RTqOJP98SQkKC6PBNyUG6v0KkmAnLWEuZ3EKMXWzIWksPANxyGfxErde+6KdqTFksISb8VTYT2M4HdbUiR5qpgKaHZJbif9EAEAqbTAlmtm9QNIpBQSqxQ1GoJsaDArDKWZk10s3V1dP/HJcbCJAcHAIwqHPtmhzutYPmYu4XTLayUf7YcPo1hD6NQwfLpjBkywvUJP6M3w8rolIcdzNR9/qPCbOM/VQv5p1t5760zghdstrqbQsl8XPS9PkRhamqyq3s/f+huClOiGHgQesbDfXLe/bu8o2GRPFOuSsDQNhDT4R+r/o37KLGmhHd1ezox9RM+u9yZXbOo4E4kQFNxjC6XkU/mH+NkEcXmH4rS+um0ZGCOccVKbZx1nNIw8JZlzPZd28GmZzqT0cVjxLq9KSE2Lpha21ms4wuAbr15pleb+XnZ3UoOQVw5wR4T62A384V5K8hJezEpwSU/FhXa1uhF9hopbQXhUvOvNd6znu0UnDXoZ+tYWPVBTbjvQfuWFbgtDSpYB2rGMS5hvViYX/C54nEgFKlwX7uZPfnOxMiRf8pInFv2Oh6sux71Cn7TqiGLTWIepC3JLC+evWFBHEEHdI4doXHdEaoexYOAKrzwUoJ383VkhAk8aAhmWAmmV55bxFEuAB/HvIiuAipmdSA4tSAQNVhUBlOA0hJ/lfbOxVcW8Jw1F/DYM5Qq6vIjWsJpH6B4bRivQNKpzf0hI6v3nNT6hqImnrSTw2VkXk1ZeLK9c3tyYPRt4avHytLrPioXeDOkT/EIVDtjfRvGrrSqgZygZU0YGJzTAbdvpgzxoYnZYJ8mxS7JzZwzPMPE0aT/nxXojj9HaYYfl7OjB+LrAA4Vu6J47KTbP9vm6vtX7ENKhjXrf9SSGjL+wLmcmpwapUFYvEHGhZdk+C+vaQW6CDsyDuuo/HJk0k8DmjEz+1Hhcx6NO7Yqf7oRqAwdVC9vlUy4YVPuAr4G0n6xEU1tnunTclVR+FESZe15yGPl7OXJxf/M05e9G2aiUj/JjLF/MUORPqeF3Rm3c5rNT5MGE6M4TQtmSqyK9VMZn4qb510VN8/JdRzh6ym+m45/2jmYmaE3rBGZkxO5W00frdaKKpltzgCNY+u+a8Ix9M4N2oLD683mrTUaMo5m01GjKMSow+mcG7UFh9ehIkSHozi6jagJSPZMtTPih/4R1UNCnyxkFh2xCGc94ZN8ZICNfeCN24r1i5Z3q04Bk/WZN27tXt9N1333ud3qOvGdk9VFNYeoSsytWNf8CrDKEmPVD+AmpTKgwNDF6T7lDdyRgY6BUwZOSMDHQKl2g/BcfO2gVTEBFK+gYzpsWgtdWlH+2lMth/fkd1VBP9bo0t4/rwrusJOKIDrQmLzUMoGhKkK5cuy+kBdPTm5qLEGm9DiSLsITCvwJkr8H/gM6/tirzQnVJwyzvs7oBWiIO6paC5dceEFtr3PfYDsfQdV94mGArYVDPQW7sJhLThRAjgC9OCS96fk1Xn8dZPPC/G9nm2wo/KOPhuuClzcsOqQLge+BtusFsKhTYkDyxDd96behnbHZBWkdCC30c7hGxJniOGf+3oLKI3X9/vpXsLSSrDqjRlgiaiexxHvmNReOvOItf2PIlcjehTf+S/GN6XUVEgFTMwgs9c9OP41T9uNBwAPV7yEmLip1cZKh6FqqVqrLJVMJZaOnlT1VVA4TAKtrMZIz3CYC9yr+dyaUUYLszTIyDWlBDQxoZ2G82EQrYl8ZQ6M3zUiu35Vo9ZwupFdJHvPedJ5/VxIWB0v5FjdXVh16MIp56KW+K/8pNs6BjaCcQnkPwccMcDjRhQfFpQ3v1Yi+LqnPWse/D+tTnF9j89LHKxx5P91CXHAxiWnBs+bUre9CTwrU3jWYnhbnF9j89LHKxx5SeGUkDvJbHjCq+j9FG6WGFFmMr1apKMseWqUdoIeN8qk2ctSp3dEtCNUDe7UC+9kE5dn+AzsDFVIdQHRGVIOyrRV5jptFEk5iovAmZ6vYjLsAtYn9x6F90/hIX0grFI6X9dQ+k7Fr27LSezejSzRzJuk7lP9TGam3wk9wcjltU1mVS/XywEhbOmI+BtwN3YR1/CGeajyTXBizeXc+uwU1Y3D/yXuXaSyh70o0pTx+ZyzXkLayq2kQFakTZbtQScUIqz1QPRgmrsoB/JEnVN0Mqqz61Vi+BQTok/vWWOMuz8z8DwJKGtS+ip+YOgrsEQUzPD3/X4elIj3wDnINftVgDJh6J3KatNybCWFcUQq2kUV6B8vMKh7cpDmQ42KiEX3ylwXaRlkX8AdwyyL99EjluoBXPMwaGPWv9lyKnLPw2UTtehBT4HbHG7lQVzyZWHO5KB33m3KPdaXXGbK+s0Acne5/l4a0MKWiAS6cU7Gqgb8Ebo1ytCoAYmYsK/zzQrKLIsnbVr4km76JfT11yT2kmBUE/z+Pqz+W1vx60/K5OP4uv/cVrfi2V+J2cPvYPt492b2hDwcEZie0vcDd/rEtAhyreJbcKa3+OKq0sB4ZW7XsWRzvPZ+XUXfClCf4yEeeUqoHLFeiZaNm2MkZBxxPJDH1qB0Yuej735eeeK/zHlszgag6M0VmY9L9/efX/gDZD5SHcz3KsYBJQx6g17T6WZXpzXtP2xngVVDB7jBGz1/V9JFB+lj5CBJCDFsZs2BCVtuxtzMjtLIoxQrbzazpBRMzMx8QtJq+SmzdwwuGdpCoUcwCxi6bK7AMlM69RK8LrgIEvMWDvFVLiy5DalgU4JnMc5YGik7uvpjuvCudLpYRNh2raz1918oRFKvLSOhQmO0FPx4DsxuLsO1bWkIf6Yn9DPtaSBeMMsKErFNti6t3Wpn7JoJub3ljjGcb8aLkLvVgLFJ0uPmVffZMblc7GYqJsaiQHn4ipQX9ZljrdePfiwlFcaKAYRFKlHkxJRrpH1sQ67EUKC/rMscHHwHiZsFGSQ7m/3TRiqGdFRkjqoUlSETf5HYQZX2052nJGz1JQbVTNaMWWhcS9FbsCPUcS1QLMVvasSD3T9aJR78dbji4EP/Sl16+Fq8+S/QO7EH3XAIzLSi7aAxl20HbJXckBx/he1HZMOhMFYT0Qk/vuE/PJfNeNV8S24U138cVVpYDwyt2vYsjo/Ea2ZRbaab5188LyVqBgZRAI5gO7TPWIQNeoNe09+p2xyLg1Q7EmJshAsAY6pm2zPG58fuCoh+LIkLpSlpxVTrKqWqjtZnFHMEdw0tKz9mcxzlgaKTu6+mO68K50ulhE2HatrQCe4lLXsP2O/tX+1bVlaAyE4mLZYCxSdLj5lX32TG5XOxmKibGokB5+IqUF/WZY63rIo0YBVji1wOJDoH9ZnBkeFeGXNBGCZAvqjC1+ApWLDJropJAn1rNThRJk3+n6RarlAYy7Z+OAFkvBhdfhdqsNQJWgGB5NRRbduH2zh9iDZIOVmOGR82pE9Hwb9d6O9scfpf9R4/d7Vr/vs4lcjVWNcRWYK4uq4Fia31lRfQQTEX6nz4Klwbpz/Hd2wEdqnhPosluxuJ1vKdWw7YPga2jjZ3xI0J/IiOF3CHCkuAOFJdfv8+GNelZzg/TB3BS2uLWptjGAr6/9LqzjL21v9EnZbWsj77jto7A7AzIk0YaemmC3k8BrMQNbF0zEn17aRXdF4hLqI5Fc8ahr0bgJyDB7vRxPj0SbLxKQ1n076CP9QyGA9JMcpJHIle9crUclOriD/fX2o13tVO2w64ik9HbTQTSSffdjrDENKgt3NNqwfn4LdUIP/f/1ci2stDMWpsoNi8vLM+ceH2NbLivxsQ+fPhwMlWidMMMqs4f9Z+D4czfvb1MihPfY7yHpvLXt5fIRGEctBKuIWUCU4e8dSBc3bedBf/GUFOxMIG9Qmvu8vGZqie+DqFBIxgSXbzuCFuyJq+O/IsH8X8BiR0jsztg4K0YNTW/r1S1nlkhHSBliF38BQ2nC2D+ua9SBy7opVLlh0wfpFMOBas1QUgySfYD4IZ+VsPGznuKGiS0RzPI3Ll41EBjPBirYGVSof/oo120kOivRaTsltmKOT5sqPluhxQ7XAcCADt/jtzrSBdZx7gfKAKxCDCtzsUVQ2SQpZrvfNkytu2+O4Iz5g39JhbCSRtf99IEr/ILBoZy1eeT+J2mB3VYE8ZYfNWvvq3D6xoRX1yMFWfVe0fk6DVp9Gelu2k2Dvexcyj0iSPJovI5/LlQPRB+CjV+MmOYvhwTO6hn/bSq0H2tt2Blposfmux1h1gTqGHa3GI9sR2Gz7YqUxJNyp4BwyUwleOog8VHK1KnKdrpiQ3SD9RywLLP4uAumWvJZXyHZlj7xNAOxEsLF0kqfABdo4hN25XzVAxLZSaAIFMPNsfrPxTyqyJ+PLKNCWorYWMOcAYhay1LjxsHnND3not3YZHkDwXFWDff8ziBaFPcPSgQ8moe/sQIMdjTdcQuxf4ZQpa/I51U9iD1v2DF/XGjrKAxaeI/K1Vv7hj5mTtqrz388DMY3kOcRbGY7fIce/J1xLh7EN5+rZevRmYDS4E2vLbFFxaH6uRJsfIxMVy9z/RX1n4+XANHNR4YhaNZDfs/fzIEHvAQ9u1VcXViF3LGRUGD6JxVb/S7nsqfqLJbJap4Nv8jH3GBJfWFSCNtdQb16V7a3ostFq4hYoTguyr97DfJhF8DZjyiwTfZDvKMYCpuQJocsSmEwqBpGLBL9OcPLqPz6Rg+NJSC16V2wDx6gLq/1tqOiMBBrgoUTTuy8JwCLc+FPqIQW/pGE6UCHk1D39iBBjsabriF2L/DKR6skpSKwSSVlXsuwUJ6ldjcBLDNvb57miAte03qsPcdiqWsTWQM41U7biZNlrTgzjVD849t9rMhTZvIIvOF1sJL0ovPWnSv98t5/AaOsuThvKzaak7ft2AxN/hXXuUHCgcDP/H+AJFn4N+P1P8VK/wOn4tQ/i6X/i0A/xV/8LWf9FTAHh63avqzd756W86M90/nXfdCA5EPxP4OmviX4b8Gv/QwD4hmWwGz+DA0tW1k6sz6onm7XG+FOE3Jy7gx23+iWJNA+HZRWFJntGGBQS0C2zTFIzLFC6tyOYkVIO+MAY4fsFP/9AmfTu7mfPQoo4i/9SN1Qq2v7dgVU1JDOPf0n4VtHfPG7Ofrfbs9h/6B1Yppknae23rz/toYacaZx1zYL/VHc3WEpa7waPSQq0Ov9H9eJEmKWzr4zseyT/H/r6/ru9HZnrrNTujR9RsbZcqb2cNfrJ/SMXGWOGQ5Ta267U63ogfQA7Aj8PFQVucl/nJiOET/ifcND3OU42ZEau07I4ef5s6V30VX95/mzpXeWNd30HmsfGGGJ3+wYP1e885zzQzhKuus3XsoPcUHXPXr218TwQzqou0XmilZh3IkDBnCoM8kgLD46gHYOsGuHCV1CjEAs6ULZNhjDRZ+oGh1WiK01bZXMvCM4xfGjhCzi4Plbz62ecybxOYOr+9hdXkmO+lLASXQ9by6iDVoa12c44TY06Szyg2F8p09gGAva9vPbZvIcRp7dSV7+Y0b6YO4S6i8v76jLkawY25XDiFdcqJdP+GoTJq6r4dM0jKO80fnlJl+1gRS1x1DFs1i1VMBsXmjSZgYdcEocn4n6O8j363C3K66gRVqGUO/ZzdhEvwgUcKFFBrKwuGX/SrPHVqoMmiRP9F1/8hUXX+oNDMIAi/xcANbAazyrqwZPLd0gTJT6GZqaV2AYiSogVjODOAJKbnDqGJEnbp14vtLM8hSjm/0tPZpy5rbBdBFtVMDab/0iIvn3y5L6DutW6MPvJUBBo9wpq6oxO+O0N9LT8fHyS9m+GEJTjwps3PtstWkCR7KGPKu/Y9UDwBE8u2705ss7xzdFmqN+AAnkvwfkxXS8yo+zy5HWJ0bNB5dbseWkOgx6y1X2M4Sdtob8txMOuCUeufypdyYle/x9yg5Pe92lfREciOAe7dqyQRuzig5SycyYOGZbKnRWo5+IcsoWRBi1Nwc5I7Ye0PPu/zr8qrDVbdgWtb81LiTxOKBScuZ9J2SqrtEauaqy8PT+Ga1d0VX98zwsIh+WKYfehLJSJok7Yhs3F4Ho9UCj1+N6OOVJG6EUzCSauqc5ibp3xtR37cT1UUMf3oiXvZLeL9OcyH0my5fQiALu5MA2QtCVPiowO1cFXIrffgCU/xdJP3Pf4qC7JbjI8WR4QvfaPMhvwxhcY2p9xFjo638nWStS/lK3qmsv/fgTPp3dzPnoUUGsrC4Zf9Ks8dWqgyaJE/yLIIYXrc7kjciAwGxO3UiNVJ7/FS4khVLMAgqrHAbRhcfwS3n5jDZ3ob8cH1rijCG0I31A8Zf3rydO+z1rzIpAgNNjWJmJy6NNUTlR0gQwo/s8MN0E+405d8nenamQFX2Eyry+2hhpsbrbUk8wI6yFowAk4/wlZ0EKcYIJV2PgvXTQ4yA9szSQc4PL4BkAIfFE5WY1PUmsk1ng6Ukbhu4D4Cl48B/wpAbsk75CXsZ64MGWcLfuQFzvVolyNq3KI+edCzBrMPdPCaLObNGOqK5NVPzCuykbhWH1vJ8lCnQYwIw9hY/y1Fx4SioEscBDGQj9cQIiIeOwyL1p2TP8DisdzoOA+w3M2yXc/lb5rkXidcqHTcyNv6a5cSdczWG4Vpix0dEjLh75xQMzw07ti1Tdnu8XeiW/n07yGyRAtZr0EMIH10HAXaoFNegM9u2hamfC81vu+Ucv/fume10c2v2xo83uftjR5vc/bGjze5+2NHm9z9saPN7n7Y0eb3zUm0pzZxdq4r8ztQXKbxxlBfmVYCz90WSmdOymB4xNpqth1sTbT+ZdrloY3cmjIsQPBAf4qA4DI30kL9nJC9oXtC9oXtDAS1jaNaaiURxJKpZdTzO865Ld7+ddKE2kE2EkD4U/kDlLQQ7X26sQbzL5CJtVbOnvVqb36dE8CdEfyN0RW9LPwkThGP/1+UmB7+i6rXGqxkqdsHOX+lwuTGXX591QYoAcVWFAVYYtX7svv+ZqkuP97zHtdHNr9saPN7n7Y0eb3P2xo83zOza7PC46wlsojKxwavImg7sPdUlTO7NLrB1SAP98dE1WznH9Ra+PCnaQfImwq0x4X1r0jNJGxlvzbkuSNl+XWWfmyATe7nvPRpbQWsN8oVK+IsdKfJnSwOAG1Un6HMUssDSSzqvxXCJci4OHNzRnraTUN9HjoHx+VqTmD1isoUZEr+YIwZ4FjvmmcBpOcrwjUdl2Tm5RcxPMxuzIEg8W4UQB9meu8cknVz+eNXRIREkWvk6KlSnYowXiOPzqnjd7p/far6nSD+L4Y8Kdov+as5vn8pc2G5GgsU5JDkPf/cBZOazT7EiyCevzWNqTMhABk59QXsvYufxGQeqPHcGqZdmDk9bRmwvqYHtONlsuy+uruB/q3ugBEws+bzzZq3kbQ+d3HlJJ6/1FPEPnDcztPyFlE5Ntm+fxl/9k=';

function jpxScanPage(covered: number): Uint8Array {
  const dict = '/Width 612 /Height 792 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /JPXDecode';
  return printScanPdf(dict, new Uint8Array(Buffer.from(PAGE, 'base64')), covered);
}

// The same scan at four times the resolution (each pixel 4 × 4: 2448 × 3168 over the page, 288 dpi), coded by
// opj_compress -n 6 -I -r 1000: read at half resolution.
const PAGE_288 =
  'AAAADGpQICANCocKAAAAFGZ0eXBqcDIgAAAAAGpwMiAAAAAtanAyaAAAABZpaGRyAAAMYAAACZAAAQcHAAAAAAAPY29scgEAAAAAABEAAB4CanAyY/9P/1EAKQAAAAAJkAAADGAAAAAAAAAAAAAACZAAAAxgAAAAAAAAAAAAAQcBAf9SAAwAAAABAAUEBAAA/1wAI0J3IHbwdvB2wG8AbwBu4GdQZ1BnaFAFUAVQR1fTV9NXYv9kACUAAUNyZWF0ZWQgYnkgT3BlbkpQRUcgdmVyc2lvbiAyLjUuMP+QAAoAAAAAHXEAAf+T4/N6v/0k/ySv6SQUAFyv/pveM9OH/YoURkRRBVwwSKdpZL6Ab4/cvc3PNI/v3pwcheaVgaLSrecdQFxqWfnMewa0ibnjHilLghvitL96bCVuimPRn1ko8Vpdw6NI4AAmzO7kXDkYf84Sd4WqVwtBFIzEmhaCKRmJM7Ij+it8kn5vyl2DQmbw0GZ+qeTiyrLyDs43ocag7Fh+hdiQeMWHw4gujfwFba9NLy6bfl0mun2OXbM4Lbwuac+Fg2jUMTJABzetyQ9S8fQiYMl0oJqqABJ3ZWWyYo/BOX6CMqyFDpJg907bUcPTsKiqR0ifXcw4iP0QoDa1kApPzFPQjxa5p3Mmg/RXm9tSTKweRJ1L6pzhIa1g7j+1P1rhYj8L77Ei9YVvK3vYkUAJpHEegaOkyd7ACkwe6gLaOHqCClSOkW8/aoRziFAbWtyME0MJ3M57StbHBKtrlf9s08KmDuZ/Devg91BLUi2T7JwMi67elwvcqNYGAAAAAAAYSEv/CVFN0Tq3MbekYw27tIYr5bDEk3dWnWbeJbcFaKCCcWGJ6jvN9BwrHPmbdDPB3W/Q1aIbwXjdeSckxQYl5E1Lewb+OXxreCMf6ppZBHyIM8CRZ3nEV4FfuaZA3+azLsR8ZiXkWin8LvAXX0OOCvK6Qu5hXuMxTdFHG8S24K0UEE4sMT1Heb6DhWOfM26GeDuxgR+K2IprSI4a5NigxL/6tHYsqtiCuaveW0AEQZcl1XsufpM8wInl5HS4bMVdOZPCAG6YNY3YlMnRqCht4t2MaYtav8tIQb6OEs4oXRoMNO9WifbsYZ4Fw0Ie4i0AdCkhO4OSJbxJjQj06iUIKI/DI3H3oCUCVN0pcC8Wawa2bygB9BqZq8PLUJr0yB0yRNmtTVpzJ4QA3TBrG7Epk6NQUNvFuxjTFrV/mxF2FAJYRWJoqzQCHV+ipR4mJf9uFABcr/9C37X1gAAAAAGEhL/8jBQAXK//fROMiD0AAAAAAAAwkJf/bRQAXK/6va/kIAAAAAYSEv9xq+Py9Dhh+LqGMH4fQQDkdDIReAZwr4nZSk5GQW7g+DgHdafmqbqzfK57e1DR+CBiUl79ZfIBdUFVbTeKHj1yJjm2fsBdFcRTPZC5SiUHm7Q9eyPQCTIxhnOwYNABx9KEw9xGz0/19SXOnmatIHHzHsm4pp66TdBdyqGa/3UQ8C93iSGVHGregw9wT9Ab37AJJVa6rkxK1755iNwly5yFrs5C12Y8ZvqMfp1c3seVt3gewaWybR9QpaLzX389eWxp982EkdXotFw+ZnJ90ywrmkYAMxolCWbdj1NnmZyfdK9jlfC+/VEtW9Wrq0W5Gu7aFGZKmlJeXrpHvJE+u8CcvsgnRKD4ljR9jsHxVqaj2Z+UBWRs+Ic0OvZawZzkViZcV9HuvRHGYjLDPznhA169+C5YgoEWQnnS32hgmTGmDpj75Nmf4RmJjvrdc9ps3GURfAnDWY++OnQ35prar3rTyflvModXrLKg3jscT3V4PSTy4Ztw5iLJUDN4ZzJXdCP7vL6a2AsrcwdqGi/4ev6MWV5E95qvMus+6xi2cVhgzaoeQkMGGbMBcaDkBu/sY5FedPBjCHX1ajPxs3Zx44K5fncY/pmhwrwbDkndkgPnXGMVRgjdt89SYLgDOUiUFYalfdvjx8NASTD9ys19DgdhaAC9ajPmR2ZGUkack1ObE8JjO+CT8eRcy/UhNbizu2VN6ZlygjKLM+/pMT5MCOMBEcIGrYHxA0JN6UIZFv6g4bfPCQxvbMs6afu7G3CzohlgFrjHcoxN9Mla7F7hEvQKvqU/vpzh4Cq2mejL8wgxOOAzsdFu/sXkatC7VdO4QmGTMP0GOAl1tafBV1+SWCSekqn3ff2sFw+M0BVcfAa444Jas0qNpQstqENFadVslfgV463POqHxfYE8IS/LR3GXTwg02G9mWGsTOrHxLjXs2aP6L/RnIMLIAgAI5bdh8sFcLJQ7cVukXyC5e1bLKtuTSr90CTtX7wRKqjsk5DqTYQ8G132PILCQ67VZ6DzChj5Qq1D6scdVAQ6Gq+RbPw9Hj3HggcblIDoXKo4md0+8e7el+5xbeOZTEnggGNKZrEgUeE7bHVM9zCnQNyi800GOz4T6kiuNOTtE+O0IMjDn/eEGRhz1CdJJAQntN4/xQL8dZjiF8fxdDfxVJ+LRn4Kg4fu2/wdLfbp+GnOD7q9aj2xA8GOCP6884vpW2CzNyvkr+kNhILa0zqjeexHvjue5rJZPFSzKr/0Mk4OS3fZcM3jldZ8m8ZVVy/QC023477WZyTATAlsuurkpfvHDOUXnUZFx/2bu6DNLGn499LaHNyWDInol7R40UhSV4tkagHVig9M2OrD6/3eGu5Zj4mgISdg9KUM3kz1LUdk5F43Yj4ZTxqAIb1sbaiewRPz1hXUYbYP2DbLVadEals48Xd1Nj+cVdXdY6n7rRz5cBjKwoZmMQNHprIN3Nmsy6efgj89RvuyMS90KIl0QgO8dJHM6KHYpRJ9Qvy9FEvdCiJdEIDvHSR8DO0UnA+P6QM1/3qNkOmnLxJtSNm0zIb6J4J3wIermzVwB7zpvM5OvpBxp6JjGbxkvGdyR4/uNXSq0u5H6UY7D5gHP5qODIXy0lTX1yoCt7382SCTbECbMcKM0Ov9PbklaqqMcZzDAnL9Gj/mhwIBTyJRwDuuy7xkI4two0lctyZwR2U8IPPGjRVm6fBmKZVSyjNhn/Crm0v3VYa3OM0hN1hVqv1ae03tOrFC2EcOWahnEK8+PEJ9QvuBwW5tgPnnK2Q4z5mCbGklHqn8xIxiBNzOQlf1H9QIAuHxgE9fdkYl7oURLohAd46SPC4txzorEJ8HQpobw+1my4On2RHXxmRCJzE+hMEzQWBjYlt01N8XGBkbuf5LZbFaW4FWHW6JL8HbxDBDRBF7ZqvIh7CT4cP2Du3EQgBBvAPFjutjRIEyla5VvJsIS/m/qngrzqOv/VKvPmVwkLSRstFFKTaWcg5jDHknqT/NDCbrmZwLQjTmolt9NGlGfzf9ryRqbPcvuceumGnVwAWaRxI9wTqSMsgCXwZchrZIgKGDQ0RJAwvlNy6u3rDL0RE0D7B1u2cWPVqmZkoyW6Ndj/EJXGAL/LF9g2XVoWdQj8tbuCMaQ/4ZcI/OEJyBssAO4MJDV4fd8+Q0Cdnufn3a0OSY2fXYduYcqWHi+EeKas7HX8B0GPeYR/y9Vbl+HE/IY8ATeewzqche8Os1HQVdjyQFlVFato8TIBVTtLpH0PSKndRmuJzke/ZotpZRbBaqYaGogklXh8nG+i3gWwbATI1kfTSXwe+xkV3IkBLC8PJ1jd3IMqrPtnLyoj5AkNStFfHYS/ZKHvgC3kSpV1/BrkeneFMEHd3g0AqJmskK7ZIvMmq7+4vj+Jq9AjriOBmGSFpb6mStIS/JJjXDPqxwuNZMixnjT5Iw+sk1QZY+bo/Kxu1deL99TmYgOM/Nawjx45wTq9dBVTtK9HkVJseo8jakvBOHVD5/wbSYSPm+jFij823y4qF+VkF6r5zZ9oYpoDTS0h8Kuj1XLcELrbqIMR94oWE5SNj+HtCZFrF9zRc3Tf5yJDgVJmc/R9Gxt6MW2gtTnkIWP/WHwhNRcn17wH9TprlyccGUIhgUJ+xuUWfFUscEdOLjPqmmJgiNCzkN8W48AX4h5eqyRGVvnXu8+QirlcFdalh0Fv8Za4wxSNhsIP+r4/wG/xVH+XPw9Efh9Fftgf4rJ+LbH+HRwHh9U7SfUjuz97O7rL7fd3z7bgAD4hhB3LIhDA4ha/Rs8C39yFAindt7X7Mo5yzD4Uy9/NYrInVr4ImEruGJeJYg/YuWqd/JxxAKripZYSgFoCMuv/pE7JnkFtXycJv5KGRh/1X5WQuPC+8a6gcs5XR51yMFjWB6xfqeQ+aHenzj4V8f7VKFqIcIJaNB2kie/tJLqtk/kZJx1zW2Dr8N0GDixRQkJzZtin0XFdbOk8HUoSVgFq0FquAjyFEuZaTGqbSgSHTAOK8efo5Ax5/sgkoSZdLh33mUt301p/GE/TCi1LNSpbU9kZRjP+9B2Fw1hp7LYtMVCsqDI1diK1ufuHFUFNHLxwmaxNOH3GTgtSzFK6W77qVL0MSJEaUyZeVUiQYkuwOmwDebmuMsl9iZIEQq6+sOxJwkvkWrp/V7UpY556oWdq88OaXFPjqTdMKjr9iPw2WSrN+Y8/tdCwG7OdhTbOGGE4HR88ES+ACcebJ/JidqvGZExHI+ovCFRdey3IFCK4hHclPwPQAASKtk+dNSt1k8Kb8ulqO+9HpOJ5/zIaRB/8unUHDP+hhFeEu/ADvGul1JFeBsOx1kNwijCPjVJl7ieRF3G99hNReN9A074izxUBFEk8qRImnR+9k1eFHc548PdPZWkuuz81MhBid/7i8MMR3YrOgXGmIgHJWetjq205EA5KzsDu7x4E1B/cD5JFpAL6kDeU24KzvVmcoOsT7IxjMpBqoUg/Jk4ISpRVSpHNsg9SWgJuXFrmwark/9G6mhh6edsrzo/fpiMhka2dhRI4kzjEs1Ef+1BH1AqhamLrJ12MDcqE10sjJDJrs7Uy7OevozxCKii2UtNjm8JtUDi4N1ejGwCgSXf3V4wmYSH4n5DLQOMf7ZxbJIKPcnVErauzhamgNWy9kn1MTFywJjHe7udbFfF6Oh0763YqS8iQGerSPJ4eOqYB78NpuTxA2VAKnqL20NxABiYuamAOKb3iV1sROVG6NthOd+MQACclhw2rt544aBpubM0yyBkccqzEE88yii6IIXs4byS56m4b22OQpdpsJxoEakfcRruojd+pxoVnc1e1mVQG1VxXMjKjGUBcPpegsA4dOrLa0aOHorMftD/C7Oc6ZgHZR58K6qwA41zU9+FZHbXLahaAtAEhK+Ve09KiHCrvB6jhC+4Ecp8GcUZ2C40xEA5Kz1pQzp8e6FL03KLOZUTjfwBjYhmqE0z2KsMQnjb2+3lR+ySh/TiH6IAQMXzcw/hHwQTVKJ3XjAXipHGENTIrp2B2o0yVP56tRirJvfB1d+IAOf8nWZagqtTPQBK8TIbInkQ3a+fD7Sbr8nWRtyUDHRriNzWOOrSMIbsXZ/mNNKtAxCaws74hZ/PzxjZ1K6uKTnH+na7+DCIPyfA4C307BUYx9Hfa1C/c+r4B2dl8q63XimjfbVW1/LYnyJlZ1YYTl7DDhBwh2Jkpt2xoRL4C4U0M8Gjw5uKQzhDr+Ate0WRoV8HorgocCwALG8t6lWAx1T5P8avHbIa5GzCb1yF6kx6DRy+4uZ1IoPudS/2VcuSy15KIUIt/gUh6EeCgDQOpSXlvuHK69IRb5N/yEnKEYiY7heMIHAOdfI2CIVaREBXe8WiFIrVF2+bZuwhls50Y+VdUGsr49MZVQ7pNtXNhAGHEtKui2P7oeZh+PT7nMMAI2ZC6PvtmMhEO7DgwWdKvx1JanjqTkP1ks/CinEeL06OeoUfbFEqm1CRv4fW692e+FHdni9/MwK4FMDI0Xp0c9O8CQkmA5nnBFdti7yZJJSBeyLrL11hvHXlc0U1yCTnJBlXwVTSldfdOh/MT5x7tbq85ek+1yZDMflmB91po5+7qp7PdVCdCiYV9GAsLsEOCglLd4/y0uwO1V3O9yb5UIBwQLwr7OmgJYcECwSBSGU0VIAs0geZhbxCfC3lCLWUTKBPyXWRVw6HDL6RyRMRgV6MjqJThawLde40lCf8Y9p9/Fq1Rq0wJtlxMm9sjhpLN6vcjTWJtfFoJPloD9Z7lCTUZxSos4K7qFdqDKVoyl4Gez4KhyC20TCLkMH2pOPSWMSKPO1rpbjH2xW5BhAQ8xRn1LHS4uRJfywHzQJZjnvWtRdLL8riJ/jdTH3vnUord3ijIWmp5i5Db3WtfJXhhSJMHm1dC66a88RSYJXd3GF0yoQrrywuUPpeWv2+obG4CRJyQk4x3jLFTIGScTBiAVDoVf3gmXi5EaKJDNrNfo7W9M/TpM3EQGxx8xMgWf8j6UkU4NoS483yzWTBvNtK8kOh8Kx/g7PNEsuzXF5WxKsSCIbLO38FI6zymDsF1U74tOfGkm+USJpmjtlhvGv5ME7adtTae2ivtj+21dX+1I9uPb+uw9sW/ab9qq6D/aEeve0dbHrIDyYI+v7Q2h61d0Xum3Te3huu3Z7s907e6T3U7qP2+Ndr9frAAPcHI20pRFlbP5MtD4q5c3mYHMn3K6N59HhfVGrdqMmEA6nIJkvng/bvp7fsvzR697U5OVWAB5FKRMz3ByN59HhgdphSAu4OYVgD9osXXSktCOBI6QCiEjdZQHOw1OmXizmKoMjOJGUAIh4LlVMrGCI+nRcYPKUiExq/Ey01dj1Tb+P2lI+zhYbPf7KYWu4k51ZFzxrERE898RLmPV3sMV/4Z1BcJnua8ueymVKQlVh8JuwcMQEuwMCVUGuAir/P+3+sDb+WzX2Q+jDjPA0FPdmGMXeXd11pbCRmKGDLk5tdKSzkYEjpBwffGxjKBGV+ZZwdAEeW2kGhIEPZ6ZPT736Ij6jbVgjlnPgGFv3hHehoNMAujrXXhWJN88r0rEePkIGDosJGsMPocJa7L/6MrhoqxDmm6oiX6NN0zNTlyOQNz5aD6XBqArOFf5E1nX3v3Vy4ufp9k7jyIAM0+xUt2huxTknoPk4ZTBLv8B4Cip21eRkSToiFfyONhGGuo7B3OJTuf1tMxHgiJgcjXDcKU11nTBdjy5DSNYjHZFltVHKm641ZxURRisfhATG1d+Yh+AYWeOEd6G+6gSYCtyGwQ8m7Cfhz3NklGIUmfS0WNDe99Q9pLqwTxtYuH031Dqbxv3w1erxhekCeM4vBG7ddTbtJWQWpGsiwRxKi9BY/6Ttrsv90RvFR83OMhkO1wDcdIJDBCmcQIbfArewZKWUbw7AmTwt02hWWiztdnGMTU+fkvxizfl+Q5wAk7gCLoi6JnjDqrKTKA4ewkpHWtIS28eP8LFq8YYB8gB+GhIIyjK2+6muvPCO7AdC4Ns4WLEW11OLvj25zF9KC+O4XKB0xi3OaKJ2XFBPB4HTs+6y1znxf8E40BIQIpfqm23n369ofaov5WWIfp26xtU7GS6blarccS0wVtoRQYDm2S7N5RvjMywqiciq6aDHXBO9q7nMYnzyU3mDqwAnvwhjPfWDKIrjC9eh9rZN6yDvD/W7tUdfD9g0AJoY7VfD5/Cj6NaYIwvXD/a2Tesgy4Zk9u135NUL16IAmhkI/W/J4UDtDOdYMIEKeYSOBxbKr/3TLVHLC5niGE9UNPVDdyXCPI48JUAx38YM9POXLPNWaZT70Icj0F0CTfAzwstdVFotCIMULuSDCe9/KDHSDy5B06+LLFwyKvZCM4VkzIMJ2zN6FDeDD8HM14tA084gVnmU51uOZyY5MpTZXCJATL42wquNwQZc5sESQDBkCBhw9oWFZCEi7WFJ4888CdAApLGXbNOcGSicncBGH377Ne6DRM1uMeoxqlMA/S1coZq2H/VcSwmLs/K6D7mW2VPbfHsBP4gvnekIWU29KxH1TW+pBz/tRlOJTsQUST0jOQRvvA3JHHf4X9KLUOkE2kBVKPI4Ur/7G9FKiHhfPR7cJak52NyWXpojQ+2eQDo182kTFRT8sPaWH/WOnT2zH2rlOlQUUOnErxK7mYvUUsEB/VeOf+zuYzOLcoEFS5CZWxqesApOXvpEHyEt54WRHgurafv0RkwAYR41reUhE5ZWa5KtgnahntkJKG+HBZGlOTKa0b6Mp1cAg/mVRhMabxMVHrRHZWlqHJt7joVbGp6wCBZEGXxcgNcLV2UWs1SUi/21/x3fvUVWJpRywyTXbLRUw5CZgnaiBmTBHTKavGxG/yh78QIXJdw7jacu2/SoGGc61Dyg6hj9ZCN8cu1MkzJMfP1S4v3OrMM5JkKHtzJMPKDsuwE/vi551j1YtzrUeMC1cA8ylnPRF+TBJIh+u1vrtd1uu+u1NMmHtHaHtHaPaG0vaWqe09oe0tp+0dp+09W2ptDae09o7T2pq9+u1v67Xet13+u1IAPaO0PaO0faG0vaWqAAHSJIfrNW62+0do/tXaN2r/aOuDWatrB7R2l7V2jdq+0da2ltHau0m1do63T+s1d1vD2jtHau0W1ftHXHrNXdYAADzv6N5+t3T31BeSc4CwvOaeAj6W1XCPgb2dYf0CKOTowVWydtX4XUDUPO/o5wYvNWse+w/TAVe85FYEYHTGJnsTT0eh/QIo4sa8hp5SYyE7IMJ87+jk5FFFJU3S5F9P+jztdmzes7K89FfpJKVXU2zgFz/f1iUiCOkYjXxDu4E8P8TAF/n7SHXmMNUtYBhQl7M4BcS7q+x6tlA4F+lkbV+Ec18ZJ//Lmc8wFdRK6856YXIEDHFn4Uwdf4pXEp0CDmlChCLr5v+d9nfATMCDV+lZsNrJsGTCp//GW1OK6BLGFS1gGHBH/GEpW7QsTjLJVF8nRskcXBDiLay965nzoSKwlTLHJRRGTAKdCa9mdT1O/4xZcZRy4ekUNF9vEtyMNCxPQz7SdBWjrxpWBHx84xcVWrN/AvSssLAEwEOYAKySXdeXNT1Ou2yZVfhFicsQsD9TKMBv0/QsTv8hc3M6V0KbKC63ArCaL2/0B4q47VaD/X3U1Ps543z8sunvqC8k5wUkbVRcZmjGOxf4JXrbTfdggrmAU6E12vt8Y5sjjFoyi8ZslQUig4CzdeA7OeOlGr5dBWjrxpWBHx84xcVDew+oL4IzESXswgQfXtRRNPg7fGORG41LBoVXWNRGlcEzy/oW+znjmxNmnM6V0KbKC63ArCaL2VF7MOnhpDOB/U9FCLzv6N5+t3T31BeSc4CwvOaeAj6W1XCPgb2dYf0CKOTowVWydtX4XUDUPO/o5wYvNWse+w/TAVe85FYEYHTGJnsTT0eh/QIo4sa8hp5SYyE7IMJ87+jk5FFFJU3S5F9P+jztdmzes7K89FfpJKVXU2zgFz/f1iUiCOkYjXxDu4E8P8TAF/n7SHXmMNUtYBhQl7M4BcS7q+x6tlA4F+lkbV+Ec18ZJ//Lmc8wFdRK6856YXIEDHFn4Uwdf4pXEp0CDmlChCLr5v+d9nfATMCDV+lZsNrJsGTCp//GW1OK6BLGFS1gGHBH/GEpW7y6gCWuK2PA2bMJHHyoQCdbCqRWoH6UvLqAI2WMpWK7G6Mp5JnakI7XWnx3dETKSCWyTEo9QDTkzd+KYrh8VYi4UuNPy1SANSh0nxzfkKaHv4kmIqSBDuS6fgFZ2qiuQdcaxmBEPhP1R8NRfkA1Gl9edo+YGN//iFOjpVfv8hwLNtnapuNWHYrwPGg5tJsd9qe5gDUodKCI/9xXyWwSpD346AKcKzuRLqvbyfV5KoKcKzuRLvfEVXjoApSu9SFJhyD9iG/vBVRp4WZI4Klzfxx+2dJLK60HtX+jDnhb6UgTqsVoZs6asQ2SW8HQQ5X+GAvjtTZ6FVcMqHsgL+8J17TAZxkfFy4I770VJT2xDZI3LUkQLI4MRHfzuwMiMlVw9yuv7wlvolwOswUix5N11rKLGGutCddowJGd+0q7ouA6NNhNe33BBx024ORvk0Kuslv58lh6WiBGvMpt6CWjpGh0Hbp3WJbE1H4L7efSZKeyxdX55vRUKzo02J1wU76Tl8NA5zdukh2m7np3WI2o5Y3NoCBUmYdJcMXwuiSeWjo02JbIByzoQqrXVuu5WVdhOfJYnWwCY9umNktdHzy6gCWuK2PA2bMJHHyoQCdbCqRWoH6UvLqAI2WMpWK7G6Mp5JnakI7XWnx3dETKSCWyTEo9QDTkzd+KYrh8VYi4UuNPy1SANSh0nxzfkKaHv4kmIqSBDuS6fgFZ2qiuQdcaxmBEPhP1R8NRfkA1Gl9edo+YGN//iFOjpVfv8hwLNtnapuNWHYrwPGg5tJsd9qe5gDUodKCI/9xXyWwSpD346AKcKzuRLqvbyfV5KoKcKzuRLvfEVXjoApSu9SFJhyD9iH/2Q==';

test('a JPEG 2000 scan of 288 dpi is read at half resolution: its evidence sees the lines the layer lacks', () => {
  const page = (covered: number) =>
    printScanPdf(
      '/Width 2448 /Height 3168 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /JPXDecode',
      new Uint8Array(Buffer.from(PAGE_288, 'base64')),
      covered,
    );
  const full = analyzePdfSync(page(6), { layerQuality: true }).pages[0].evidence.layerQuality!;
  assert.equal(full.signals.image, undefined, JSON.stringify(full.signals));
  assert.ok((full.signals.inkCovered as number) > 0.9, JSON.stringify(full.signals));
  // the ink under the layer's words is a third of it when the layer covers two lines of six; the blocky letters of
  // this drawn page, four times as large at 288 dpi, read less like print to the ink map than at 72 dpi (a full read
  // gives 0.13 missing text, the half read 0.17), so the test holds the read, not the 72 dpi figures
  const part = analyzePdfSync(page(2), { layerQuality: true, textLayer: true }).pages[0];
  const p = part.evidence.layerQuality!;
  assert.ok(Math.abs((p.signals.inkCovered as number) - 1 / 3) < 0.05, JSON.stringify(p.signals));
  assert.ok((p.signals.textInkMissed as number) > (full.signals.textInkMissed as number) + 0.08, JSON.stringify(p.signals));
  assert.ok(part.evidence.textLayer!.missingText!.length >= 1, JSON.stringify(part.evidence.textLayer!.missingText));
});

test('a JPEG 2000 scan is read like a JPEG one: the ink of the lines the layer lacks is missing text', () => {
  const full = analyzePdfSync(jpxScanPage(6), { layerQuality: true }).pages[0];
  assert.equal(full.route, 'ocr-layer');
  const q = full.evidence.layerQuality!;
  assert.equal(q.signals.image, undefined, JSON.stringify(q.signals));
  assert.ok((q.signals.textInkMissed as number) < 0.05, JSON.stringify(q.signals));
  const part = analyzePdfSync(jpxScanPage(2), { layerQuality: true, textLayer: true }).pages[0];
  const p = part.evidence.layerQuality!;
  assert.ok(Math.abs((p.signals.textInkMissed as number) - 2 / 3) < 0.1, JSON.stringify(p.signals));
  assert.equal(p.reocr, true);
  assert.equal(part.evidence.textLayer!.missingText!.length, 4, JSON.stringify(part.evidence.textLayer!.missingText));
  // a damaged JPEG 2000 scan is named, not read as blank
  const bad = Buffer.from(jpxScanPage(6))
    .toString('latin1')
    .replace(/stream\n\0\0\0\x0cjP/, 'stream\nXXXXXXX');
  const sig = analyzePdfSync(new Uint8Array(Buffer.from(bad, 'latin1')), { layerQuality: true }).pages[0].evidence.layerQuality!.signals.image;
  assert.match(String(sig), /^scan image not read: its data is damaged/);
});
