/// @file proxima.h
/// Umbrella header: includes every public proxima header.
#pragma once

#include "proxima/base.h"
#include "proxima/cast.h"
#include "proxima/constants.h"
#include "proxima/contact.h"
#include "proxima/dynamic_tree.h"
#include "proxima/geometry.h"
#include "proxima/gjk.h"
#include "proxima/heightfield.h"
#include "proxima/hull.h"
#include "proxima/io.h"
#include "proxima/manifold.h"
#include "proxima/mesh.h"
#include "proxima/mesh_collide.h"
#include "proxima/shapes.h"
#include "proxima/simplex.h"
#include "proxima/task.h"
#include "proxima/transform.h"
#include "proxima/world.h"
