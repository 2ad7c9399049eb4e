/**
 * @file gts.h
 * @brief Umbrella header of libgts: include this one.
 *
 * libgts is a library for two-player zero-sum game tree search. A game plugs
 * in through the callbacks of gts_game (game.h); an engine (engine.h) runs the
 * search entry points of search.h.
 */
#ifndef GTS_GTS_H
#define GTS_GTS_H

#include <gts/version.h>
#include "common.h"
#include "game.h"
#include "engine.h"
#include "search.h"
#include "probcut.h"
#include "mcts.h"
#include "check.h"
#include "plugin.h"

#endif /* GTS_GTS_H */
