/**
 * Snowball's Lovins stemmer as Lucene ships it (org.tartarus.snowball.ext.LovinsStemmer), ported from
 * Lucene's class onto ./program.ts. Generated code: its routines keep their Snowball names.
 */
import { among, SnowballProgram, type Among } from './program.js';

const A_0: ReadonlyArray<Among<LovinsStemmer>> = [among('d', -1, -1), among('f', -1, -1), among('ph', -1, -1),
  among('th', -1, -1), among('l', -1, -1), among('er', -1, -1), among('or', -1, -1), among('es', -1, -1),
  among('t', -1, -1)];
const A_1: ReadonlyArray<Among<LovinsStemmer>> = [among('s\'', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('a', -1, 1, (p: LovinsStemmer) => p.r_A()), among('ia', 1, 1, (p: LovinsStemmer) => p.r_A()),
  among('ata', 1, 1, (p: LovinsStemmer) => p.r_A()), among('ic', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('aic', 4, 1, (p: LovinsStemmer) => p.r_A()), among('allic', 4, 1, (p: LovinsStemmer) => p.r_BB()),
  among('aric', 4, 1, (p: LovinsStemmer) => p.r_A()), among('atic', 4, 1, (p: LovinsStemmer) => p.r_B()),
  among('itic', 4, 1, (p: LovinsStemmer) => p.r_H()), among('antic', 4, 1, (p: LovinsStemmer) => p.r_C()),
  among('istic', 4, 1, (p: LovinsStemmer) => p.r_A()), among('alistic', 11, 1, (p: LovinsStemmer) => p.r_B()),
  among('aristic', 11, 1, (p: LovinsStemmer) => p.r_A()), among('ivistic', 11, 1, (p: LovinsStemmer) => p.r_A()),
  among('ed', -1, 1, (p: LovinsStemmer) => p.r_E()), among('anced', 15, 1, (p: LovinsStemmer) => p.r_B()),
  among('enced', 15, 1, (p: LovinsStemmer) => p.r_A()), among('ished', 15, 1, (p: LovinsStemmer) => p.r_A()),
  among('ied', 15, 1, (p: LovinsStemmer) => p.r_A()), among('ened', 15, 1, (p: LovinsStemmer) => p.r_E()),
  among('ioned', 15, 1, (p: LovinsStemmer) => p.r_A()), among('ated', 15, 1, (p: LovinsStemmer) => p.r_I()),
  among('ented', 15, 1, (p: LovinsStemmer) => p.r_C()), among('ized', 15, 1, (p: LovinsStemmer) => p.r_F()),
  among('arized', 24, 1, (p: LovinsStemmer) => p.r_A()), among('oid', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('aroid', 26, 1, (p: LovinsStemmer) => p.r_A()), among('hood', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('ehood', 28, 1, (p: LovinsStemmer) => p.r_A()), among('ihood', 28, 1, (p: LovinsStemmer) => p.r_A()),
  among('elihood', 30, 1, (p: LovinsStemmer) => p.r_E()), among('ward', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('e', -1, 1, (p: LovinsStemmer) => p.r_A()), among('ae', 33, 1, (p: LovinsStemmer) => p.r_A()),
  among('ance', 33, 1, (p: LovinsStemmer) => p.r_B()), among('icance', 35, 1, (p: LovinsStemmer) => p.r_A()),
  among('ence', 33, 1, (p: LovinsStemmer) => p.r_A()), among('ide', 33, 1, (p: LovinsStemmer) => p.r_L()),
  among('icide', 38, 1, (p: LovinsStemmer) => p.r_A()), among('otide', 38, 1, (p: LovinsStemmer) => p.r_A()),
  among('age', 33, 1, (p: LovinsStemmer) => p.r_B()), among('able', 33, 1, (p: LovinsStemmer) => p.r_A()),
  among('atable', 42, 1, (p: LovinsStemmer) => p.r_A()), among('izable', 42, 1, (p: LovinsStemmer) => p.r_E()),
  among('arizable', 44, 1, (p: LovinsStemmer) => p.r_A()), among('ible', 33, 1, (p: LovinsStemmer) => p.r_A()),
  among('encible', 46, 1, (p: LovinsStemmer) => p.r_A()), among('ene', 33, 1, (p: LovinsStemmer) => p.r_E()),
  among('ine', 33, 1, (p: LovinsStemmer) => p.r_M()), among('idine', 49, 1, (p: LovinsStemmer) => p.r_I()),
  among('one', 33, 1, (p: LovinsStemmer) => p.r_R()), among('ature', 33, 1, (p: LovinsStemmer) => p.r_E()),
  among('eature', 52, 1, (p: LovinsStemmer) => p.r_Z()), among('ese', 33, 1, (p: LovinsStemmer) => p.r_A()),
  among('wise', 33, 1, (p: LovinsStemmer) => p.r_A()), among('ate', 33, 1, (p: LovinsStemmer) => p.r_A()),
  among('entiate', 56, 1, (p: LovinsStemmer) => p.r_A()), among('inate', 56, 1, (p: LovinsStemmer) => p.r_A()),
  among('ionate', 56, 1, (p: LovinsStemmer) => p.r_D()), among('ite', 33, 1, (p: LovinsStemmer) => p.r_AA()),
  among('ive', 33, 1, (p: LovinsStemmer) => p.r_A()), among('ative', 61, 1, (p: LovinsStemmer) => p.r_A()),
  among('ize', 33, 1, (p: LovinsStemmer) => p.r_F()), among('alize', 63, 1, (p: LovinsStemmer) => p.r_A()),
  among('icalize', 64, 1, (p: LovinsStemmer) => p.r_A()), among('ialize', 64, 1, (p: LovinsStemmer) => p.r_A()),
  among('entialize', 66, 1, (p: LovinsStemmer) => p.r_A()), among('ionalize', 64, 1, (p: LovinsStemmer) => p.r_A()),
  among('arize', 63, 1, (p: LovinsStemmer) => p.r_A()), among('ing', -1, 1, (p: LovinsStemmer) => p.r_N()),
  among('ancing', 70, 1, (p: LovinsStemmer) => p.r_B()), among('encing', 70, 1, (p: LovinsStemmer) => p.r_A()),
  among('aging', 70, 1, (p: LovinsStemmer) => p.r_B()), among('ening', 70, 1, (p: LovinsStemmer) => p.r_E()),
  among('ioning', 70, 1, (p: LovinsStemmer) => p.r_A()), among('ating', 70, 1, (p: LovinsStemmer) => p.r_I()),
  among('enting', 70, 1, (p: LovinsStemmer) => p.r_C()), among('ying', 70, 1, (p: LovinsStemmer) => p.r_B()),
  among('izing', 70, 1, (p: LovinsStemmer) => p.r_F()), among('arizing', 79, 1, (p: LovinsStemmer) => p.r_A()),
  among('ish', -1, 1, (p: LovinsStemmer) => p.r_C()), among('yish', 81, 1, (p: LovinsStemmer) => p.r_A()),
  among('i', -1, 1, (p: LovinsStemmer) => p.r_A()), among('al', -1, 1, (p: LovinsStemmer) => p.r_BB()),
  among('ical', 84, 1, (p: LovinsStemmer) => p.r_A()), among('aical', 85, 1, (p: LovinsStemmer) => p.r_A()),
  among('istical', 85, 1, (p: LovinsStemmer) => p.r_A()), among('oidal', 84, 1, (p: LovinsStemmer) => p.r_A()),
  among('eal', 84, 1, (p: LovinsStemmer) => p.r_Y()), among('ial', 84, 1, (p: LovinsStemmer) => p.r_A()),
  among('ancial', 90, 1, (p: LovinsStemmer) => p.r_A()), among('arial', 90, 1, (p: LovinsStemmer) => p.r_A()),
  among('ential', 90, 1, (p: LovinsStemmer) => p.r_A()), among('ional', 84, 1, (p: LovinsStemmer) => p.r_A()),
  among('ational', 94, 1, (p: LovinsStemmer) => p.r_B()), among('izational', 95, 1, (p: LovinsStemmer) => p.r_A()),
  among('ental', 84, 1, (p: LovinsStemmer) => p.r_A()), among('ful', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('eful', 98, 1, (p: LovinsStemmer) => p.r_A()), among('iful', 98, 1, (p: LovinsStemmer) => p.r_A()),
  among('yl', -1, 1, (p: LovinsStemmer) => p.r_R()), among('ism', -1, 1, (p: LovinsStemmer) => p.r_B()),
  among('icism', 102, 1, (p: LovinsStemmer) => p.r_A()), among('oidism', 102, 1, (p: LovinsStemmer) => p.r_A()),
  among('alism', 102, 1, (p: LovinsStemmer) => p.r_B()), among('icalism', 105, 1, (p: LovinsStemmer) => p.r_A()),
  among('ionalism', 105, 1, (p: LovinsStemmer) => p.r_A()), among('inism', 102, 1, (p: LovinsStemmer) => p.r_J()),
  among('ativism', 102, 1, (p: LovinsStemmer) => p.r_A()), among('um', -1, 1, (p: LovinsStemmer) => p.r_U()),
  among('ium', 110, 1, (p: LovinsStemmer) => p.r_A()), among('ian', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('ician', 112, 1, (p: LovinsStemmer) => p.r_A()), among('en', -1, 1, (p: LovinsStemmer) => p.r_F()),
  among('ogen', 114, 1, (p: LovinsStemmer) => p.r_A()), among('on', -1, 1, (p: LovinsStemmer) => p.r_S()),
  among('ion', 116, 1, (p: LovinsStemmer) => p.r_Q()), among('ation', 117, 1, (p: LovinsStemmer) => p.r_B()),
  among('ication', 118, 1, (p: LovinsStemmer) => p.r_G()), among('entiation', 118, 1, (p: LovinsStemmer) => p.r_A()),
  among('ination', 118, 1, (p: LovinsStemmer) => p.r_A()), among('isation', 118, 1, (p: LovinsStemmer) => p.r_A()),
  among('arisation', 122, 1, (p: LovinsStemmer) => p.r_A()),
  among('entation', 118, 1, (p: LovinsStemmer) => p.r_A()), among('ization', 118, 1, (p: LovinsStemmer) => p.r_F()),
  among('arization', 125, 1, (p: LovinsStemmer) => p.r_A()), among('action', 117, 1, (p: LovinsStemmer) => p.r_G()),
  among('o', -1, 1, (p: LovinsStemmer) => p.r_A()), among('ar', -1, 1, (p: LovinsStemmer) => p.r_X()),
  among('ear', 129, 1, (p: LovinsStemmer) => p.r_Y()), among('ier', -1, 1, (p: LovinsStemmer) => p.r_A()),
  among('ariser', -1, 1, (p: LovinsStemmer) => p.r_A()), among('izer', -1, 1, (p: LovinsStemmer) => p.r_F()),
  among('arizer', 133, 1, (p: LovinsStemmer) => p.r_A()), among('or', -1, 1, (p: LovinsStemmer) => p.r_T()),
  among('ator', 135, 1, (p: LovinsStemmer) => p.r_A()), among('s', -1, 1, (p: LovinsStemmer) => p.r_W()),
  among('\'s', 137, 1, (p: LovinsStemmer) => p.r_A()), among('as', 137, 1, (p: LovinsStemmer) => p.r_B()),
  among('ics', 137, 1, (p: LovinsStemmer) => p.r_A()), among('istics', 140, 1, (p: LovinsStemmer) => p.r_A()),
  among('es', 137, 1, (p: LovinsStemmer) => p.r_E()), among('ances', 142, 1, (p: LovinsStemmer) => p.r_B()),
  among('ences', 142, 1, (p: LovinsStemmer) => p.r_A()), among('ides', 142, 1, (p: LovinsStemmer) => p.r_L()),
  among('oides', 145, 1, (p: LovinsStemmer) => p.r_A()), among('ages', 142, 1, (p: LovinsStemmer) => p.r_B()),
  among('ies', 142, 1, (p: LovinsStemmer) => p.r_P()), among('acies', 148, 1, (p: LovinsStemmer) => p.r_A()),
  among('ancies', 148, 1, (p: LovinsStemmer) => p.r_A()), among('encies', 148, 1, (p: LovinsStemmer) => p.r_A()),
  among('aries', 148, 1, (p: LovinsStemmer) => p.r_A()), among('ities', 148, 1, (p: LovinsStemmer) => p.r_A()),
  among('alities', 153, 1, (p: LovinsStemmer) => p.r_A()), among('ivities', 153, 1, (p: LovinsStemmer) => p.r_A()),
  among('ines', 142, 1, (p: LovinsStemmer) => p.r_M()), among('nesses', 142, 1, (p: LovinsStemmer) => p.r_A()),
  among('ates', 142, 1, (p: LovinsStemmer) => p.r_A()), among('atives', 142, 1, (p: LovinsStemmer) => p.r_A()),
  among('ings', 137, 1, (p: LovinsStemmer) => p.r_N()), among('is', 137, 1, (p: LovinsStemmer) => p.r_A()),
  among('als', 137, 1, (p: LovinsStemmer) => p.r_BB()), among('ials', 162, 1, (p: LovinsStemmer) => p.r_A()),
  among('entials', 163, 1, (p: LovinsStemmer) => p.r_A()), among('ionals', 162, 1, (p: LovinsStemmer) => p.r_A()),
  among('isms', 137, 1, (p: LovinsStemmer) => p.r_B()), among('ians', 137, 1, (p: LovinsStemmer) => p.r_A()),
  among('icians', 167, 1, (p: LovinsStemmer) => p.r_A()), among('ions', 137, 1, (p: LovinsStemmer) => p.r_B()),
  among('ations', 169, 1, (p: LovinsStemmer) => p.r_B()), among('arisations', 170, 1, (p: LovinsStemmer) => p.r_A()),
  among('entations', 170, 1, (p: LovinsStemmer) => p.r_A()),
  among('izations', 170, 1, (p: LovinsStemmer) => p.r_A()),
  among('arizations', 173, 1, (p: LovinsStemmer) => p.r_A()), among('ars', 137, 1, (p: LovinsStemmer) => p.r_O()),
  among('iers', 137, 1, (p: LovinsStemmer) => p.r_A()), among('izers', 137, 1, (p: LovinsStemmer) => p.r_F()),
  among('ators', 137, 1, (p: LovinsStemmer) => p.r_A()), among('less', 137, 1, (p: LovinsStemmer) => p.r_A()),
  among('eless', 179, 1, (p: LovinsStemmer) => p.r_A()), among('ness', 137, 1, (p: LovinsStemmer) => p.r_A()),
  among('eness', 181, 1, (p: LovinsStemmer) => p.r_E()), among('ableness', 182, 1, (p: LovinsStemmer) => p.r_A()),
  among('eableness', 183, 1, (p: LovinsStemmer) => p.r_E()),
  among('ibleness', 182, 1, (p: LovinsStemmer) => p.r_A()), among('ateness', 182, 1, (p: LovinsStemmer) => p.r_A()),
  among('iteness', 182, 1, (p: LovinsStemmer) => p.r_A()), among('iveness', 182, 1, (p: LovinsStemmer) => p.r_A()),
  among('ativeness', 188, 1, (p: LovinsStemmer) => p.r_A()), among('ingness', 181, 1, (p: LovinsStemmer) => p.r_A()),
  among('ishness', 181, 1, (p: LovinsStemmer) => p.r_A()), among('iness', 181, 1, (p: LovinsStemmer) => p.r_A()),
  among('ariness', 192, 1, (p: LovinsStemmer) => p.r_E()), among('alness', 181, 1, (p: LovinsStemmer) => p.r_A()),
  among('icalness', 194, 1, (p: LovinsStemmer) => p.r_A()),
  among('antialness', 194, 1, (p: LovinsStemmer) => p.r_A()),
  among('entialness', 194, 1, (p: LovinsStemmer) => p.r_A()),
  among('ionalness', 194, 1, (p: LovinsStemmer) => p.r_A()), among('fulness', 181, 1, (p: LovinsStemmer) => p.r_A()),
  among('lessness', 181, 1, (p: LovinsStemmer) => p.r_A()), among('ousness', 181, 1, (p: LovinsStemmer) => p.r_A()),
  among('eousness', 201, 1, (p: LovinsStemmer) => p.r_A()), among('iousness', 201, 1, (p: LovinsStemmer) => p.r_A()),
  among('itousness', 201, 1, (p: LovinsStemmer) => p.r_A()), among('entness', 181, 1, (p: LovinsStemmer) => p.r_A()),
  among('ants', 137, 1, (p: LovinsStemmer) => p.r_B()), among('ists', 137, 1, (p: LovinsStemmer) => p.r_A()),
  among('icists', 207, 1, (p: LovinsStemmer) => p.r_A()), among('us', 137, 1, (p: LovinsStemmer) => p.r_V()),
  among('ous', 209, 1, (p: LovinsStemmer) => p.r_A()), among('eous', 210, 1, (p: LovinsStemmer) => p.r_A()),
  among('aceous', 211, 1, (p: LovinsStemmer) => p.r_A()), among('antaneous', 211, 1, (p: LovinsStemmer) => p.r_A()),
  among('ious', 210, 1, (p: LovinsStemmer) => p.r_A()), among('acious', 214, 1, (p: LovinsStemmer) => p.r_B()),
  among('itous', 210, 1, (p: LovinsStemmer) => p.r_A()), among('ant', -1, 1, (p: LovinsStemmer) => p.r_B()),
  among('icant', 217, 1, (p: LovinsStemmer) => p.r_A()), among('ent', -1, 1, (p: LovinsStemmer) => p.r_C()),
  among('ement', 219, 1, (p: LovinsStemmer) => p.r_A()), among('izement', 220, 1, (p: LovinsStemmer) => p.r_A()),
  among('ist', -1, 1, (p: LovinsStemmer) => p.r_A()), among('icist', 222, 1, (p: LovinsStemmer) => p.r_A()),
  among('alist', 222, 1, (p: LovinsStemmer) => p.r_A()), among('icalist', 224, 1, (p: LovinsStemmer) => p.r_A()),
  among('ialist', 224, 1, (p: LovinsStemmer) => p.r_A()), among('ionist', 222, 1, (p: LovinsStemmer) => p.r_A()),
  among('entist', 222, 1, (p: LovinsStemmer) => p.r_A()), among('y', -1, 1, (p: LovinsStemmer) => p.r_B()),
  among('acy', 229, 1, (p: LovinsStemmer) => p.r_A()), among('ancy', 229, 1, (p: LovinsStemmer) => p.r_B()),
  among('ency', 229, 1, (p: LovinsStemmer) => p.r_A()), among('ly', 229, 1, (p: LovinsStemmer) => p.r_B()),
  among('ealy', 233, 1, (p: LovinsStemmer) => p.r_Y()), among('ably', 233, 1, (p: LovinsStemmer) => p.r_A()),
  among('ibly', 233, 1, (p: LovinsStemmer) => p.r_A()), among('edly', 233, 1, (p: LovinsStemmer) => p.r_E()),
  among('iedly', 237, 1, (p: LovinsStemmer) => p.r_A()), among('ely', 233, 1, (p: LovinsStemmer) => p.r_E()),
  among('ately', 239, 1, (p: LovinsStemmer) => p.r_A()), among('ively', 239, 1, (p: LovinsStemmer) => p.r_A()),
  among('atively', 241, 1, (p: LovinsStemmer) => p.r_A()), among('ingly', 233, 1, (p: LovinsStemmer) => p.r_B()),
  among('atingly', 243, 1, (p: LovinsStemmer) => p.r_A()), among('ily', 233, 1, (p: LovinsStemmer) => p.r_A()),
  among('lily', 245, 1, (p: LovinsStemmer) => p.r_A()), among('arily', 245, 1, (p: LovinsStemmer) => p.r_A()),
  among('ally', 233, 1, (p: LovinsStemmer) => p.r_B()), among('ically', 248, 1, (p: LovinsStemmer) => p.r_A()),
  among('aically', 249, 1, (p: LovinsStemmer) => p.r_A()), among('allically', 249, 1, (p: LovinsStemmer) => p.r_C()),
  among('istically', 249, 1, (p: LovinsStemmer) => p.r_A()),
  among('alistically', 252, 1, (p: LovinsStemmer) => p.r_B()),
  among('oidally', 248, 1, (p: LovinsStemmer) => p.r_A()), among('ially', 248, 1, (p: LovinsStemmer) => p.r_A()),
  among('entially', 255, 1, (p: LovinsStemmer) => p.r_A()), among('ionally', 248, 1, (p: LovinsStemmer) => p.r_A()),
  among('ationally', 257, 1, (p: LovinsStemmer) => p.r_B()),
  among('izationally', 258, 1, (p: LovinsStemmer) => p.r_B()),
  among('entally', 248, 1, (p: LovinsStemmer) => p.r_A()), among('fully', 233, 1, (p: LovinsStemmer) => p.r_A()),
  among('efully', 261, 1, (p: LovinsStemmer) => p.r_A()), among('ifully', 261, 1, (p: LovinsStemmer) => p.r_A()),
  among('enly', 233, 1, (p: LovinsStemmer) => p.r_E()), among('arly', 233, 1, (p: LovinsStemmer) => p.r_K()),
  among('early', 265, 1, (p: LovinsStemmer) => p.r_Y()), among('lessly', 233, 1, (p: LovinsStemmer) => p.r_A()),
  among('ously', 233, 1, (p: LovinsStemmer) => p.r_A()), among('eously', 268, 1, (p: LovinsStemmer) => p.r_A()),
  among('iously', 268, 1, (p: LovinsStemmer) => p.r_A()), among('ently', 233, 1, (p: LovinsStemmer) => p.r_A()),
  among('ary', 229, 1, (p: LovinsStemmer) => p.r_F()), among('ery', 229, 1, (p: LovinsStemmer) => p.r_E()),
  among('icianry', 229, 1, (p: LovinsStemmer) => p.r_A()), among('atory', 229, 1, (p: LovinsStemmer) => p.r_A()),
  among('ity', 229, 1, (p: LovinsStemmer) => p.r_A()), among('acity', 276, 1, (p: LovinsStemmer) => p.r_A()),
  among('icity', 276, 1, (p: LovinsStemmer) => p.r_A()), among('eity', 276, 1, (p: LovinsStemmer) => p.r_A()),
  among('ality', 276, 1, (p: LovinsStemmer) => p.r_A()), among('icality', 280, 1, (p: LovinsStemmer) => p.r_A()),
  among('iality', 280, 1, (p: LovinsStemmer) => p.r_A()), among('antiality', 282, 1, (p: LovinsStemmer) => p.r_A()),
  among('entiality', 282, 1, (p: LovinsStemmer) => p.r_A()),
  among('ionality', 280, 1, (p: LovinsStemmer) => p.r_A()), among('elity', 276, 1, (p: LovinsStemmer) => p.r_A()),
  among('ability', 276, 1, (p: LovinsStemmer) => p.r_A()), among('izability', 287, 1, (p: LovinsStemmer) => p.r_A()),
  among('arizability', 288, 1, (p: LovinsStemmer) => p.r_A()),
  among('ibility', 276, 1, (p: LovinsStemmer) => p.r_A()), among('inity', 276, 1, (p: LovinsStemmer) => p.r_CC()),
  among('arity', 276, 1, (p: LovinsStemmer) => p.r_B()), among('ivity', 276, 1, (p: LovinsStemmer) => p.r_A())];
const A_2: ReadonlyArray<Among<LovinsStemmer>> = [among('bb', -1, -1), among('dd', -1, -1), among('gg', -1, -1),
  among('ll', -1, -1), among('mm', -1, -1), among('nn', -1, -1), among('pp', -1, -1), among('rr', -1, -1),
  among('ss', -1, -1), among('tt', -1, -1)];
const A_3: ReadonlyArray<Among<LovinsStemmer>> = [among('uad', -1, 18), among('vad', -1, 19), among('cid', -1, 20),
  among('lid', -1, 21), among('erid', -1, 22), among('pand', -1, 23), among('end', -1, 24), among('ond', -1, 25),
  among('lud', -1, 26), among('rud', -1, 27), among('ul', -1, 9), among('her', -1, 28), among('metr', -1, 7),
  among('istr', -1, 6), among('urs', -1, 5), among('uct', -1, 2), among('et', -1, 32), among('mit', -1, 29),
  among('ent', -1, 30), among('umpt', -1, 3), among('rpt', -1, 4), among('ert', -1, 31), among('yt', -1, 33),
  among('iev', -1, 1), among('olv', -1, 8), among('ax', -1, 14), among('ex', -1, 15), among('bex', 26, 10),
  among('dex', 26, 11), among('pex', 26, 12), among('tex', 26, 13), among('ix', -1, 16), among('lux', -1, 17),
  among('yz', -1, 34)];

export class LovinsStemmer extends SnowballProgram {


  r_A(): boolean {
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    return true;
  }

  r_B(): boolean {
    const c = this.cursor - 3;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    return true;
  }

  r_C(): boolean {
    const c = this.cursor - 4;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    return true;
  }

  r_D(): boolean {
    const c = this.cursor - 5;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    return true;
  }

  r_E(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'e')) {
      this.cursor = this.limit - v_2;
      return true;
    }
    return false;
  }

  r_F(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 3;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'e')) {
      this.cursor = this.limit - v_2;
      return true;
    }
    return false;
  }

  r_G(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 3;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    return this.eq_s_b(1, 'f');
  }

  r_H(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 't')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(2, 'll')) {
        return false;
      }
    }
    return true;
  }

  r_I(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (this.eq_s_b(1, 'o')) {
      return false;
    }
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'e')) {
      this.cursor = this.limit - v_3;
      return true;
    }
    return false;
  }

  r_J(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (this.eq_s_b(1, 'a')) {
      return false;
    }
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'e')) {
      this.cursor = this.limit - v_3;
      return true;
    }
    return false;
  }

  r_K(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 3;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'l')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(1, 'i')) {
        this.cursor = this.limit - v_2;
        if (!this.eq_s_b(1, 'e')) {
          return false;
        }
        if (this.cursor <= this.limit_backward) {
          return false;
        }
        --this.cursor;
        if (!this.eq_s_b(1, 'u')) {
          return false;
        }
      }
    }
    return true;
  }

  r_L(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (this.eq_s_b(1, 'u')) {
      return false;
    }
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'x')) {
      this.cursor = this.limit - v_3;
      const v_4 = this.limit - this.cursor;
      if (this.eq_s_b(1, 's')) {
        const v_5 = this.limit - this.cursor;
        if (!this.eq_s_b(1, 'o')) {
          this.cursor = this.limit - v_5;
          return false;
        }
      }
      this.cursor = this.limit - v_4;
      return true;
    }
    return false;
  }

  r_M(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (this.eq_s_b(1, 'a')) {
      return false;
    }
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (this.eq_s_b(1, 'c')) {
      return false;
    }
    this.cursor = this.limit - v_3;
    const v_4 = this.limit - this.cursor;
    if (this.eq_s_b(1, 'e')) {
      return false;
    }
    this.cursor = this.limit - v_4;
    const v_5 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'm')) {
      this.cursor = this.limit - v_5;
      return true;
    }
    return false;
  }

  r_N(): boolean {
    const v_1 = this.limit - this.cursor;
    let c = this.cursor - 3;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    const v_2 = this.limit - this.cursor;
    const v_3 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 's')) {
      this.cursor = this.limit - v_3;
    } else {
      this.cursor = this.limit - v_2;
      c = this.cursor - 2;
      if (this.limit_backward > c || c > this.limit) {
        return false;
      }
      this.cursor = c;
    }
    return true;
  }

  r_O(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'l')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(1, 'i')) {
        return false;
      }
    }
    return true;
  }

  r_P(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'c')) {
      this.cursor = this.limit - v_2;
      return true;
    }
    return false;
  }

  r_Q(): boolean {
    const v_1 = this.limit - this.cursor;
    let c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    c = this.cursor - 3;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (this.eq_s_b(1, 'l')) {
      return false;
    }
    this.cursor = this.limit - v_3;
    const v_4 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'n')) {
      this.cursor = this.limit - v_4;
      return true;
    }
    return false;
  }

  r_R(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'n')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(1, 'r')) {
        return false;
      }
    }
    return true;
  }

  r_S(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(2, 'dr')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(1, 't')) {
        return false;
      }
      const v_3 = this.limit - this.cursor;
      if (this.eq_s_b(1, 't')) {
        return false;
      }
      this.cursor = this.limit - v_3;
    }
    return true;
  }

  r_T(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 's')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(1, 't')) {
        return false;
      }
      const v_3 = this.limit - this.cursor;
      if (this.eq_s_b(1, 'o')) {
        return false;
      }
      this.cursor = this.limit - v_3;
    }
    return true;
  }

  r_U(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'l')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(1, 'm')) {
        this.cursor = this.limit - v_2;
        if (!this.eq_s_b(1, 'n')) {
          this.cursor = this.limit - v_2;
          if (!this.eq_s_b(1, 'r')) {
            return false;
          }
        }
      }
    }
    return true;
  }

  r_V(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    return this.eq_s_b(1, 'c');
  }

  r_W(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (this.eq_s_b(1, 's')) {
      return false;
    }
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'u')) {
      this.cursor = this.limit - v_3;
      return true;
    }
    return false;
  }

  r_X(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'l')) {
      this.cursor = this.limit - v_2;
      if (!this.eq_s_b(1, 'i')) {
        this.cursor = this.limit - v_2;
        if (!this.eq_s_b(1, 'e')) {
          return false;
        }
        if (this.cursor <= this.limit_backward) {
          return false;
        }
        --this.cursor;
        if (!this.eq_s_b(1, 'u')) {
          return false;
        }
      }
    }
    return true;
  }

  r_Y(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    return this.eq_s_b(2, 'in');
  }

  r_Z(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.eq_s_b(1, 'f')) {
      this.cursor = this.limit - v_2;
      return true;
    }
    return false;
  }

  r_AA(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    return this.find_among_b(A_0, 9) !== 0;
  }

  r_BB(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 3;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (this.eq_s_b(3, 'met')) {
      return false;
    }
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (!this.eq_s_b(4, 'ryst')) {
      this.cursor = this.limit - v_3;
      return true;
    }
    return false;
  }

  r_CC(): boolean {
    const v_1 = this.limit - this.cursor;
    const c = this.cursor - 2;
    if (this.limit_backward > c || c > this.limit) {
      return false;
    }
    this.cursor = c;
    this.cursor = this.limit - v_1;
    return this.eq_s_b(1, 'l');
  }

  r_endings(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_1, 294);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_del();
        break;
      }
    }
    return true;
  }

  r_undouble(): boolean {
    const v_1 = this.limit - this.cursor;
    if (this.find_among_b(A_2, 10) === 0) {
      return false;
    }
    this.cursor = this.limit - v_1;
    this.ket = this.cursor;
    if (this.cursor <= this.limit_backward) {
      return false;
    }
    --this.cursor;
    this.bra = this.cursor;
    this.slice_del();
    return true;
  }

  r_respell(): boolean {
    this.ket = this.cursor;
    const among_var = this.find_among_b(A_3, 34);
    if (among_var === 0) {
      return false;
    }
    this.bra = this.cursor;
    switch (among_var) {
      case 0: {
        return false;
      }
      case 1: {
        this.slice_from('ief');
        break;
      }
      case 2: {
        this.slice_from('uc');
        break;
      }
      case 3: {
        this.slice_from('um');
        break;
      }
      case 4: {
        this.slice_from('rb');
        break;
      }
      case 5: {
        this.slice_from('ur');
        break;
      }
      case 6: {
        this.slice_from('ister');
        break;
      }
      case 7: {
        this.slice_from('meter');
        break;
      }
      case 8: {
        this.slice_from('olut');
        break;
      }
      case 9: {
        const v_1 = this.limit - this.cursor;
        if (this.eq_s_b(1, 'a')) {
          return false;
        }
        this.cursor = this.limit - v_1;
        const v_2 = this.limit - this.cursor;
        if (this.eq_s_b(1, 'i')) {
          return false;
        }
        this.cursor = this.limit - v_2;
        const v_3 = this.limit - this.cursor;
        if (!this.eq_s_b(1, 'o')) {
          this.cursor = this.limit - v_3;
          this.slice_from('l');
          break;
        }
        return false;
      }
      case 10: {
        this.slice_from('bic');
        break;
      }
      case 11: {
        this.slice_from('dic');
        break;
      }
      case 12: {
        this.slice_from('pic');
        break;
      }
      case 13: {
        this.slice_from('tic');
        break;
      }
      case 14: {
        this.slice_from('ac');
        break;
      }
      case 15: {
        this.slice_from('ec');
        break;
      }
      case 16: {
        this.slice_from('ic');
        break;
      }
      case 17: {
        this.slice_from('luc');
        break;
      }
      case 18: {
        this.slice_from('uas');
        break;
      }
      case 19: {
        this.slice_from('vas');
        break;
      }
      case 20: {
        this.slice_from('cis');
        break;
      }
      case 21: {
        this.slice_from('lis');
        break;
      }
      case 22: {
        this.slice_from('eris');
        break;
      }
      case 23: {
        this.slice_from('pans');
        break;
      }
      case 24: {
        const v_4 = this.limit - this.cursor;
        if (!this.eq_s_b(1, 's')) {
          this.cursor = this.limit - v_4;
          this.slice_from('ens');
          break;
        }
        return false;
      }
      case 25: {
        this.slice_from('ons');
        break;
      }
      case 26: {
        this.slice_from('lus');
        break;
      }
      case 27: {
        this.slice_from('rus');
        break;
      }
      case 28: {
        const v_5 = this.limit - this.cursor;
        if (this.eq_s_b(1, 'p')) {
          return false;
        }
        this.cursor = this.limit - v_5;
        const v_6 = this.limit - this.cursor;
        if (!this.eq_s_b(1, 't')) {
          this.cursor = this.limit - v_6;
          this.slice_from('hes');
          break;
        }
        return false;
      }
      case 29: {
        this.slice_from('mis');
        break;
      }
      case 30: {
        const v_7 = this.limit - this.cursor;
        if (!this.eq_s_b(1, 'm')) {
          this.cursor = this.limit - v_7;
          this.slice_from('ens');
          break;
        }
        return false;
      }
      case 31: {
        this.slice_from('ers');
        break;
      }
      case 32: {
        const v_8 = this.limit - this.cursor;
        if (!this.eq_s_b(1, 'n')) {
          this.cursor = this.limit - v_8;
          this.slice_from('es');
          break;
        }
        return false;
      }
      case 33: {
        this.slice_from('ys');
        break;
      }
      case 34: {
        this.slice_from('ys');
        break;
      }
    }
    return true;
  }

  override stem(): boolean {
    this.limit_backward = this.cursor;
    this.cursor = this.limit;
    const v_1 = this.limit - this.cursor;
    if (!this.r_endings()) {}
    this.cursor = this.limit - v_1;
    const v_2 = this.limit - this.cursor;
    if (!this.r_undouble()) {}
    this.cursor = this.limit - v_2;
    const v_3 = this.limit - this.cursor;
    if (!this.r_respell()) {}
    this.cursor = this.limit - v_3;
    this.cursor = this.limit_backward;
    return true;
  }
}
