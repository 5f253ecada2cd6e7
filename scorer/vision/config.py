"""Every tunable of the detector in one frozen object (sizes are in pixels unless noted)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VisionConfig:
    # decode: refuse what would exhaust memory before any work is done
    max_megapixels: float = 50.0
    max_bytes: int = 25 * 1024 * 1024
    # decode to at least this long side (JPEG draft mode halves the work of big photos)
    work_long_side: int = 2000
    # locate: the search for the board runs on an image this large (long side)
    locate_long_side: int = 640
    # corner refinement: edge search on an image this large, within this band (% of diagonal)
    refine_long_side: int = 1200
    refine_band: float = 0.015
    # locate.search: a board whose content score is below this is not a board (a right board
    # scores 40-90)
    min_content_score: float = 18.0
    # ... a right fit correlates 0.45-0.7 with the pattern of spaces, a wrong one below 0.15
    sure_correlation: float = 0.35
    # ... the search stops at the first outline this sure (wrong ones reach 41 / 0.37, never
    # both)
    plain_score: float = 30.0
    plain_correlation: float = 0.45
    # ... a fit against the paper around each pixel replaces one against one paper colour when
    # it correlates this much better with the pattern of spaces, each measured its own way (a
    # fit slid off under a glare spot is 0.05-0.2 behind; on an evenly lit photo the one
    # colour's fit correlates as well or better)
    refit_gain: float = 0.02
    # ... the edges found this near a cropped photo's own (share of the diagonal) are its edges
    at_the_frame: float = 0.004
    # locate.content: how far the board_frame may put the map off the board (cm): a measured
    # one (USA) by its median error on real photos (3 px of 1500), an assumed one (Europe) by
    # several mm
    measured_frame_slack_cm: float = 0.15
    assumed_frame_slack_cm: float = 0.7
    # locate.aligner: the pyramid as (template px per art px, ECC smoothing kernel, iterations);
    # coarse for every candidate, fine for the best two (the content score's polish takes it
    # from there); from further away (~10 %, the long-line quads) through a coarser level
    # before the coarse ones
    align_coarse: tuple[tuple[float, int, int], ...] = ((1 / 16, 5, 20),)
    align_fine: tuple[tuple[float, int, int], ...] = ((1 / 8, 5, 30),)
    align_wide_first: tuple[tuple[float, int, int], ...] = ((1 / 32, 5, 20),)
    # ... art px: structures wider than this (sea, shadows) are taken out of its image
    align_high_pass: float = 40.0
    # ... art px: the paper around a pixel, when measured so, is the median of a window this
    # wide: paper outnumbers routes and cities in it, and it follows a glare spot
    align_local_paper: float = 100.0
    # locate.masks: the "unlike around" mask's window around a pixel (share of the photo's long
    # side), how far (Lab) a pixel must be from its median to count, and the gaps (share of
    # the short side) closed between such pixels
    around_window: float = 0.06
    unlike_around: float = 10.0
    around_join: float = 0.06
    # locate.lines: how far a board's opposite sides may turn from parallel in a photo
    # (perspective: 40 degrees between them on a board 37 degrees off vertical)
    opposite_turn_degrees: float = 45.0
    # ... collinear pieces further apart than this (share of the photo's long side) are not
    # joined
    line_gap: float = 0.12
    # locate.cut: a board cut by the photo's frame (a photo taken too close). A side of an
    # outline this near an edge of the photo (share of its long side) lies along it; the board
    # is looked for again reaching past such edges, kept where at least this share of its
    # spaces falls in the photo ...
    cut_touch: float = 0.012
    cut_min_seen: float = 0.5
    # ... and a corner further than this beyond an edge (share of the board's diagonal) is
    # outside the photo
    outside_tolerance: float = 0.01
    # a lane with a printed space outside the photo is read at most this surely (the review
    # asks it), and one with half of its spaces or more outside is not read at all
    unseen_confidence: float = 0.3
    # a space is burnt out by a glare spot when this share of the square around it is white
    # (every channel at burnt_level or more): its lane is read as one outside the photo is.
    # On the real photos and their variants (soft glare spots included) no space had more than
    # 0.02 of its square that white; under a lamp's burnt-out spot the lanes there read empty,
    # 0.83-1.00 sure
    burnt_level: int = 248
    burnt_share: float = 0.5
    # ... unless only white routes' print burnt (sample.burnt_by_glare): a photo exposed
    # brighter clips it, not a glare spot. The real photos brightened x1.35 (LSO models):
    # lanes asked 17.9 -> 8.6 %; with veil_paper, 4.5 %
    burnt_pale: bool = True
    # ... and a lane with a space this near a burnt one (art px, ~1.4 spaces) is asked, its
    # reading kept: there the veil is too strong to take off, and pieces read empty 0.99 sure
    # (on the 12 variants under a burnt-out reflection, wrong and not asked 10 -> 6 with 90 px,
    # 8 with 50; asked 28.3 -> 31.7 %; lanes right 88.1 % either way)
    burnt_rim: float = 90.0
    # locate.edges: the colour beside an edge is read this many px (at the edge search's
    # scale) either side of it, from 1.5 px (the blur) ...
    edge_beside: int = 4
    # ... and an edge loses this share of the rows for each Lab unit by which the colour along
    # its more even side spreads beyond the free amount (the rim beside a board's edge spreads
    # 0-9, the colour beside a line through a checked cloth or the track's numbered squares
    # 5-30)
    edge_spread_cost: float = 0.03
    edge_spread_free: float = 4.0
    # rectified board: art pixels per rectified pixel (1.0 = 1744 x 1125 map area)
    rectify_scale: float = 1.0
    # the paper's colour is measured in squares of this many art px, spread over this many
    # squares, its lightness within this range of the whole photo's paper (sample.paper_map)
    paper_cell: float = 140.0
    paper_smooth: float = 1.0
    paper_ratio: tuple[float, float] = (0.6, 1.6)
    # ... and its lightness again over this many art px (sample.fine_light): a shadow's edge
    # crosses a square. On variants of the real photos under shadows (LSO models) lanes
    # wrong and not asked 68 -> 39; without shadows 28 -> 25 (0: off)
    paper_fine: float = 36.0
    # a glare spot's white veil is taken off the rectified board first (sample.veil_map)
    unveil: bool = True
    # ... measured again as a broad spot (its top nearly whole) on a photo whose first measure
    # finds more than broad_veil_from of its spaces under a veil (glare_veil), or a space burnt
    # out: on the real photos' variants under a glare spot (LSO models) lanes right 91.6 ->
    # 94.5 %, wrong and not asked 44 -> 23. The first measure finds 0.17-0.68 of the spaces of
    # those variants under a veil, and up to 0.167 of the others' (at 0.12 seven of them, all
    # of europe-all-pieces-1, were measured again and read worse: 96-99 -> 91-96 % of lanes).
    # Training leaves it off (train.measure): models trained with it read the variants without
    # glare worse (97.3 against 98.0 % of lanes)
    broad_veil: bool = True
    broad_veil_from: float = 0.2
    # the veil is measured as if the photo's paper (the median of its squares' light, 90th
    # percentile) lay no lighter than this (sample.veil_map's ``paper``): a brighter exposure
    # lifts the print's dark level as much as it lifts the paper, which read as a veil (the
    # real photos' paper at 195-200; brightened x1.35 they put 0-47 % of their spaces under a
    # veil of 0.08, 0-11 % with burnt_pale; with both, 0-8 %: none glared)
    veil_paper: float = 200.0
    # a photo whose print between the routes reads darker than the real photos' (a steeper tone
    # curve, an HDR look) has its mid-tones lifted back (sample.tone_power, tone_curve): the
    # print's lower quartile of lightness brought to tone_print_light of the paper's, by a
    # power not below tone_lowest on every channel, none within tone_deadband of 1 (1: off).
    # Variants of the real photos under other phones' processing (LSO models, not retrained):
    # gamma 1.6 90.2 -> 93.0 % on the lightness, 98.3 % on the channels, HDR 90.9 -> 97.2 %;
    # lightening ones too (up to 1.6) lost glare variants 22.6 -> 26.0 % asked
    tone_print_light: float = 0.83
    tone_deadband: float = 0.15
    tone_lowest: float = 0.6
    # ... and the colours of a photo that dulls them stretched back (sample.print_chroma): the
    # print's colours spread (upper quartile of their distance from its median colour) this far
    # on each board's real photos (USA 2.63-2.82, Europe 9.30-10.61); a photo spreading them
    # over chroma_deadband less has every colour's chroma stretched by the ratio, at most
    # chroma_most times
    print_spread: tuple[tuple[str, float], ...] = (("usa", 2.7), ("europe", 9.9))
    chroma_deadband: float = 0.2
    chroma_most: float = 2.0
    # ... and the light's colour taken off by one gain per channel (sample.white_balance)
    white_balance: bool = True
    # photo quality gates
    min_brightness: float = 35.0
    min_sharpness: float = 6.0
    # every lane is read at these sideways offsets across its spaces (art px; a double's lanes
    # are ~22 px apart), see ``classify.space_probabilities``: real pieces often sit beside
    # their printed spaces, on real photos up to half a lane
    lane_offsets: tuple[float, ...] = tuple(float(o) for o in range(-15, 16, 3))
    # ... each averaged with this many neighbouring offsets on either side
    lane_offset_window: int = 2
    # ... around where the print lies, not where the board's data put it: the affine offset
    # the cities' printed dots agree on (register.city_dots; 2-6 px median, up to 13 px on the
    # real photos, from a board warped or corners a few px off), so that a double's lanes are
    # told apart where their pieces are. The real photos' variants (LSO models): without
    # glare (240) lanes right 98.6 -> 99.0 %, asked 6.4 -> 5.6 %, wrong and not asked 40 ->
    # 22; under glare (59) 96.8 -> 97.2 %, asked 16.5 -> 15.3 %; the real photos 99.3 ->
    # 99.5 %, asked 5.3 -> 4.6 %. Shipped model: renders 99.1 -> 99.4 % (missed 2 -> 3), stress
    # renders 97.9 -> 98.3 %, asked 8.5 -> 7.6 % (missed 10 -> 11). The dots measure an offset
    # shared by the whole print within ~2 px only (register._off_centre): the locator's
    # alignment places the print that well
    print_registered: bool = True
    # ... unless at none of them one piece colour covers this share of the lane (it is read at
    # its printed spaces then)
    lane_colour_min: float = 0.4
    # a lane of a double is read towards its sibling only as far as the sibling's pieces lie
    # away from it, measured at the offset nearest the sibling's printed lane that reads within
    # this of its best (``classify.space_probabilities``)
    double_shift_slack: float = 0.05
    # ... and when both lanes of a double read one colour over this share of their spaces, the
    # two are read again together, at offsets this far apart (art px) in two colours, kept
    # when each lane's colour covers it this well (``classify._read_doubles_apart``): on the
    # real photos' variants without glare (LSO models) lanes right 98.48 -> 98.52 %, wrong and
    # not asked 28 as before, nothing else changed (renders, real photos, glare). Every double
    # reading a colour (from lane_colour_min) read so: 98.0 %, 33 missed (an empty lane read
    # at a ferry's locomotive or beside its sibling's pieces); kept whatever the second
    # colour's cover, 98.58 % but a sample's empty lane read green 1.00 beside its sibling
    double_joint_from: float = 0.7
    double_min_gap: float = 16.0
    # a space the model reads less surely than ``photo_unsure`` is read again against this
    # photo's own spaces read surer than ``photo_sure`` (their features, the nearest
    # ``photo_neighbours`` of each class, an empty space among empty ones of its printed
    # colour: this camera's and this light's look of each), with this weight (0: off;
    # ``classify.photo_look``)
    photo_weight: float = 0.5
    photo_sure: float = 0.97
    photo_unsure: float = 0.9
    photo_neighbours: int = 3
    # a class that covers less than ``photo_prior_floor`` of the photo's spaces (estimated from
    # the photo's own probabilities) is weighed down in proportion, to this power (0: off;
    # ``classify.photo_priors``): chosen among 0.05, 0.06, 0.1 and 1/6 on the real photos read
    # by models that never saw their board (--lso), 0.1 and up cost colours of 20 pieces on the
    # stress renders
    photo_prior: float = 1.0
    photo_prior_floor: float = 0.05
    # a piece colour never read surely on a route not printed in it (or like it), and read
    # likeliest on at most this many such routes, is not on the board: the routes printed in it
    # are read without it (``classify.absent_colours``). One sure read elsewhere is enough to
    # keep it: counting such a colour absent too helped the real photos' variants (wrong and
    # not asked 34 -> 30) but wiped out a stress render's yellow player, its lanes all on
    # yellow and orange print bar one (5 lanes read empty 0.99-1.00 sure)
    absent_lanes: int = 2
    # ... "surely": this sure (the review's doubt_below, 0.75, before): the empty board in dim
    # or small, tilted photos read a green route's dark print blue 0.88 and red on an orange
    # one 0.78, and kept its bare blue and red print as pieces 0.76-0.9 sure (5 lanes wrong and
    # not asked on 2 variants, LSO models); on the other variants and the real photos no lane
    # changed
    absent_sure: float = 0.9
    # a lane is claimed when at least this share of its spaces agree on one colour: above 3/4,
    # so a lane of up to four spaces needs all of them (one left bare is a lane half done, not
    # a misread space), a longer one may have one space misread
    lane_agree: float = 0.8
    # below this share it is empty; between the two it is doubtful
    lane_doubt: float = 0.3
    # a lane read empty on most of its spaces (the share above), clear of glare, is right far
    # more often than its probability of empty says (the rest of it mostly the route's own
    # printed colour): read by models that never saw their board, every such reading of the
    # real photos and of their variants without a glare spot was right from 0.5 up
    # (docs/detector.md): from this probability its confidence starts at doubt_below
    empty_sure_from: float = 0.5
    # ... clear of glare: no space of the lane under a veil of glare_doubt_veil (below) or
    # more, and no more than glare_photo_share of the photo's spaces under one of
    # glare_photo_veil (veil_map; the real photos' own light gives up to 0.11 here and there;
    # their variants without a glare spot, small and tilted ones too, put 0 to 0.09 of their
    # spaces under a veil of 0.08, those under a glare spot 0.11 and up). Counted at 0.05 (and
    # over 0.12), the photo's own light made 14 small or tilted variants of a crowded board
    # glared, none of whose lanes counted as clear: 4 of them asked over 10 % for it
    glare_photo_veil: float = 0.08
    glare_photo_share: float = 0.1
    # over broad_veil_from of the spaces under a veil of this, the veil is measured again
    glare_veil: float = 0.05
    # under a veil of this share of white on one of its spaces, a lane read empty is asked below
    # this probability of empty (``classify.empty_knees``): chosen between 0.1 and 0.15 on the
    # real photos' variants under a glare spot (0.15 left 62 lanes wrong and not asked, 0.1 44,
    # asking 18.9 and 20.2 % of their lanes). Under a fainter veil (from glare_veil) on a
    # glared photo the lane was asked below glare_empty_sure_from too; read as it is, the
    # variants under a glare spot ask 22.4 -> 20.9 % of their lanes, under a fainter spot
    # 11.2 -> 9.9 %, a burnt-out one 31.3 -> 28.6 %, none more wrong and not asked. Below
    # it, on a photo clear of glare, the lane counts as clear: on the variants without a
    # glare spot the 233 lanes read empty under a veil of 0.05-0.1 were all right (77 of them
    # asked when such a veil counted as glare)
    glare_doubt_veil: float = 0.1
    glare_empty_sure_from: float = 0.95
    # ... as on a glared photo on paper lit this many times the photo's (classify.empty_knees)
    glare_lit: float = 1.2
    # ... and under a veil of glare_strong_veil or more, below this: there (LSO models, the
    # variants under a glare spot or a burnt-out reflection) empties read 0.95-0.99 were wrong
    # 10 times in 143. From 0.985: wrong and not asked on the glare variants 24 -> 16, photos
    # with more than one 5 -> 2, lanes asked 20.5 -> 22.1 %; the stress renders' glare asks
    # 7.4 -> 8.0 % (from 0.99: variants 14 missed, 22.7 % asked; stress renders 8.5 %)
    glare_strong_veil: float = 0.3
    glare_strong_empty_sure_from: float = 0.985
    # an empty reading under a veil of glare_doubt_veil to glare_strong_veil (on paper lit
    # less than glare_lit) is sure from this instead of glare_empty_sure_from where no piece
    # colour covers glare_bare_beside of the lane at any offset (classify.read_spaces'
    # beside): washed-out pieces still show some colour across their lane, bare paper none.
    # Glare variants (LSO models): asked 18.5 -> 16.6 % (the fainter spots 11.1 -> 8.7 %),
    # wrong and not asked 16 -> 17 (at most 6 a photo, as before)
    glare_bare_sure_from: float = 0.8
    glare_bare_beside: float = 0.2
    # ... and none of its spaces may look empty with more than this probability
    space_empty_max: float = 0.9
    # a lane read in its own printed colour (red pieces on a red route, yellow on orange) is
    # the classifier's commonest mistake on real photos: such a read's confidence is lowered by
    # this margin (the review lists it unless the model is that much surer), and one less sure
    # than the minimum is read as no owner, doubtful. On photos of a board its model never saw
    # (benchmarks/detect.py --lso) bare print read up to 0.85: of the real photos' reads between
    # 0.7 and 0.8, 10 of 11 were bare print (and 209 of 261 on their harder variants)
    same_colour_margin: float = 0.1
    same_colour_min: float = 0.8
    # ... and on a lane clear of glare (``classify.clear_of_glare``), one weaker than this is
    # bare print, read empty and not asked: on the real photos' variants without glare 116
    # such reads were bare print and 1 pieces (and 6 of 6 on the real photos; below 0.75: 178
    # and 2), all of them asked before. Under glare they are not: pieces washed out look like
    # print (24 of 60 such reads below 0.75 were pieces). Other phones and shadows read own-
    # colour pieces weaker: between 0.6 and 0.7 there 53 reads were bare print and 13 pieces
    # (the variants without glare: 120 and 0): from 0.6 they are asked (LSO models: phones'
    # variants wrong and not asked 41 -> 31, shadows 18 -> 15; asked 7.1 -> 7.6 % and 8.3 ->
    # 8.7 %, the plain variants 5.2 -> 5.7 %, the real photos 4.8 -> 5.1 %)
    bare_print_below: float = 0.6
    # the box holds this many pieces of each colour (45 to play with and 3 spares): reads that
    # add up to more spaces of one colour than this cannot all be right
    pieces_per_colour: int = 48
    # ... and a lane dropped for that is reported empty with this (doubtful) confidence
    over_the_box_confidence: float = 0.3
    # a lane read empty while one piece colour covers this share of it at an offset it may be
    # read at is asked below empty_beside_sure (classify._pieces_beside): its pieces may lie
    # further off its print than lane_offsets reach (real photos' variants without glare, LSO
    # models: 14 of 111 such empties 0.75-0.85 sure were pieces, none of 636 from 0.85)
    empty_beside: float = 0.5
    empty_beside_sure: float = 0.85
    # the review lists first, to check, every lane read less surely than this (the web's scan
    # review and benchmarks/detect.py's "to check" both use it)
    doubt_below: float = 0.75
    # a colour read on a lane in a deep shade (a space's paper under this share of the
    # photo's) is asked below this confidence (classify._in_the_shade)
    shade_light: float = 0.6
    shade_sure_from: float = 0.97
    # when both lanes of a double read one colour, and it covers the weaker lane this share of
    # the stronger or more, the stronger is asked too: on the real photos' variants the stronger
    # was the right one in 23 of 23 pairs below 0.7 and wrong in 17 of 43 above
    # (``classify.lane_results``)
    double_tie: float = 0.7
    # stations: search radius around a city (art px)
    station_radius: int = 14
    # ... a pixel counts for a piece colour within this of its look in the photo (Lab, lightness
    # weighted 0.35) ...
    station_near_piece: float = 28.0
    # ... unless it is closer still to the printed city dot and within this of it (an empty
    # city's brownish-red dot reads as a red or dark station under a warm cast)
    station_near_dot: float = 16.0
    # a train piece is 60 art px long on a 54 px space, and leans and slips: its colour is not a
    # station's this far along and across from a space read as that colour this surely
    station_train_half_length: float = 38.0
    station_train_half_width: float = 10.5
    station_train_sure: float = 0.5
    # the share of the disk one colour must cover, once the dot and trains are left out
    station_share: float = 0.38
    # a station's shaded sides read black: when black covers most of a disk and another colour
    # at least this share of what black covers, the station is of that colour. On the real
    # Europe photos' variants a black station shows at most 0.41 of another colour (Cadiz's,
    # red beside it, brightened), Roma's blue one 0.66 under a phone's HDR look and 0.37 with
    # the mid-tones pressed down (gamma 1.6): 0.75 read it black on both, 0.55 on the second
    station_shaded_ratio: float = 0.55
    # a station's base hides the city dot: when this share of the disk is still within this of
    # the dot's colour, the colour beside it is a train lying over the city, not a station
    station_dot_near: float = 12.0
    station_dot_seen: float = 0.12
    # the printed dot is looked for within this of the board's data (art px), as a patch of this
    # radius, learned from the photo's cities in this many rounds (after the first, within this
    # of where the round before found it); where it matches the photo's empty dot this well it
    # shows, and no station stands there; the print's offset is fitted to the dots seen, leaving
    # out those this far off the fit
    station_dot_search: int = 16
    station_dot_radius: int = 9
    station_dot_rounds: int = 3
    station_dot_refine: int = 4
    station_dot_match: float = 0.8
    station_dot_residual: float = 4.0
    # a train lying over a city leaves part of the dot in sight: where more than this share of
    # the dot's core (this share of the patch's radius) is within station_dot_near of the
    # photo's empty dot, pixel by pixel, no station stands there
    station_dot_core: float = 0.7
    station_dot_showing: float = 0.2


DEFAULT = VisionConfig()
